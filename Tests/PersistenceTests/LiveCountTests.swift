import Foundation
import Model
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

/// `liveRecordCount` answers what a count of the live rows answers, after every kind of
/// write, on every backend; on SQLite it comes from a counter the store keeps, so it costs
/// the same on a store of any size.
@Suite("Live-record counts")
struct LiveCountTests {
  struct Rollback: Error {}

  @Test(arguments: TestBackend.allCases)
  func counterFollowsInsertsTombstonesRevivesAndRollbacks(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    func counts() throws -> [EntityKind: Int] {
      try store.read { reader in
        try Dictionary(uniqueKeysWithValues: [EntityKind.category, .recipe].map { ($0, try reader.liveRecordCount($0)) })
      }
    }
    let produce = Fixtures.category("Produce"), dairy = Fixtures.category("Dairy"), soup = Fixtures.recipe("Soup")
    var gone = Fixtures.category("Gone")
    gone.meta.deletedAt = Fixtures.epoch  // a tombstone arriving as it is (as sync inserts one)
    try store.write { writer in
      for record in [produce, dairy, soup, gone] { try writer.insertRecord(record) }
    }
    #expect(try counts() == [.category: 2, .recipe: 1])
    #expect(try store.liveCountMismatches() == [])

    let later = Fixtures.epoch.addingTimeInterval(10)
    try store.write { writer in
      try writer.tombstoneRecord(.category, id: produce.id, at: later)
      try writer.tombstoneRecord(.category, id: produce.id, at: later)  // a second time changes nothing
    }
    #expect(try counts() == [.category: 1, .recipe: 1])

    var revived = try #require(try store.read { try $0.record(.category, id: produce.id) })
    revived.meta.deletedAt = nil
    revived.meta.updatedAt = later.addingTimeInterval(1)
    try store.write { try $0.updateRecord(revived) }
    #expect(try counts() == [.category: 2, .recipe: 1])

    // A transaction that throws keeps none of its changes to the counts either.
    #expect(throws: Rollback.self) {
      try store.write { writer in
        try writer.insertRecord(Fixtures.category("Bakery"))
        try writer.tombstoneRecord(.recipe, id: soup.id, at: later)
        throw Rollback()
      }
    }
    #expect(try counts() == [.category: 2, .recipe: 1])

    // Inside a transaction, the count includes the transaction's own writes.
    try store.write { writer in
      try writer.insertRecord(Fixtures.category("Frozen"))
      try writer.tombstoneRecord(.category, id: dairy.id, at: later)
      try writer.insertRecord(Fixtures.recipe("Stew"))
      #expect(try writer.liveRecordCount(.category) == 2)
      #expect(try writer.liveRecordCount(.recipe) == 2)
    }
    #expect(try counts() == [.category: 2, .recipe: 2])
    #expect(try store.liveCountMismatches() == [])
  }

  /// A file whose counter says 41 categories answers 41: the count comes from the counter,
  /// not from the rows (a regression to counting the rows answers 1).
  @Test func sqliteAnswersFromItsCounterNotFromTheRows() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    try store.write { try $0.insertRecord(Fixtures.category("Produce")) }
    try SQLiteInspector.execute(path, "UPDATE forager_live_counts SET live = 41 WHERE kind = 'category'")
    #expect(try store.read { try $0.liveRecordCount(.category) } == 41)
  }

  /// A file from before the counter (or one a migration rewrote) gets it, counted from its
  /// rows, when a store opens it.
  @Test func aFileWithoutTheCounterGetsItOnOpen() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    try store.write { writer in
      for name in ["Produce", "Dairy", "Bakery"] { try writer.insertRecord(Fixtures.category(name)) }
      try writer.insertRecord(Fixtures.recipe("Soup"))
    }
    try store.close()
    try SQLiteInspector.execute(path, "DROP TABLE forager_live_counts")
    let reopened = try SQLiteStore(path: path)
    #expect(try SQLiteInspector.tableSQL(path, "forager_live_counts") != nil)
    #expect(try reopened.read { try $0.liveRecordCount(.category) } == 3)
    #expect(try reopened.liveCountMismatches() == [])
  }
}
