import Foundation
import Model
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

/// The SQLite backend's lookup column of names people find records by (a weekly list's):
/// indexed, kept by every write, filled for rows that have none when a store opens the file.
@Suite("SQLite lookup columns")
struct LookupColumnTests {
  static func list(_ name: String) -> Record {
    WeeklyList(
      meta: Fixtures.meta(), displayName: name, weekIdentifier: "2024-W50", listKey: "2024-W50|" + RecordFilter.normalizedName(name)
    )
    .record
  }

  static func find(_ store: any Store, _ name: String) throws -> [String] {
    try store.read { reader in
      try reader.fetch(RecordQuery(.weeklyList, filters: [.hasNormalizedName("displayName", RecordFilter.normalizedName(name))]))
        .compactMap { $0["displayName"].text }
    }
  }

  @Test func theLookupIsAnIndexSearch() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    try store.write { try $0.insertRecord(Self.list("Épicerie")) }
    #expect(try Self.find(store, "EPICERIE") == ["Épicerie"])
    let plan = try SQLiteInspector.queryPlan(
      path, "SELECT id FROM weeklyList WHERE deletedAt IS NULL AND lookup_displayName = 'epicerie'")
    #expect(plan.contains { $0.contains("USING INDEX weeklyList_lookup_displayName") }, "\(plan)")
  }

  /// Rows from before the column (or inserted by a build without it) have no lookup value;
  /// the next open fills them.
  @Test func rowsWithoutALookupValueAreFilledOnOpen() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    try store.write { writer in
      for name in ["Épicerie", "Big  Shop"] { try writer.insertRecord(Self.list(name)) }
    }
    try store.close()
    try SQLiteInspector.execute(path, "DROP INDEX weeklyList_lookup_displayName; ALTER TABLE weeklyList DROP COLUMN lookup_displayName")
    let reopened = try SQLiteStore(path: path)
    #expect(try Self.find(reopened, "epicerie") == ["Épicerie"])
    #expect(try Self.find(reopened, "big shop") == ["Big  Shop"])
    try reopened.close()
    try SQLiteInspector.execute(path, "UPDATE weeklyList SET lookup_displayName = NULL")
    #expect(try Self.find(try SQLiteStore(path: path), "EPICERIE") == ["Épicerie"])
  }

  /// The column is the store's own: records read back without it, and the change log
  /// (what sync sends) names only the list's fields.
  @Test func theColumnIsNeitherReadIntoRecordsNorLogged() throws {
    let store = try TestBackend.sqlite.makeStore()
    let list = Self.list("Groceries")
    try store.write { try $0.insertRecord(list) }
    #expect(try store.read { try $0.record(.weeklyList, id: list.id) } == list)
    #expect(try store.changeLog().allSatisfy { !$0.fields.contains { $0.hasPrefix("lookup") } })
  }
}
