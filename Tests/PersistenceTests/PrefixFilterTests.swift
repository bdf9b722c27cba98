import Foundation
import Model
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

/// `hasPrefix` finds the records whose text field starts with the text, ignoring ASCII
/// letter case only, on every backend; the SQLite backend answers it from the display
/// name's index instead of reading every row.
@Suite("Prefix filter")
struct PrefixFilterTests {
  static let names = ["Produce", "produce aisle", "Pantry", "100% Rye", "100 Rye", "a_b", "aXb", "back\\slash", "Crème", "crème fraîche"]

  func names(_ store: any Store, _ prefix: String) throws -> [String] {
    try store.read { try $0.fetch(RecordQuery(.category, filters: [.hasPrefix("displayName", prefix)])) }.map(\.displayText).sorted()
  }

  @Test(arguments: TestBackend.allCases)
  func matchesTheStartIgnoringASCIICaseAndTakesWildcardsLiterally(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write { writer in
      for name in Self.names { try writer.insertRecord(Fixtures.category(name)) }
    }
    #expect(try names(store, "PRO") == ["Produce", "produce aisle"])
    #expect(try names(store, "produce ") == ["produce aisle"])
    #expect(try names(store, "100%") == ["100% Rye"])
    #expect(try names(store, "a_") == ["a_b"])
    #expect(try names(store, "back\\") == ["back\\slash"])
    #expect(try names(store, "cr") == ["Crème", "crème fraîche"])
    // Letters beyond ASCII match exactly: "CRÈ" is not "crè".
    #expect(try names(store, "CRÈ").isEmpty)
    #expect(try names(store, "crè") == ["Crème", "crème fraîche"])
    #expect(try names(store, "").count == Self.names.count)
    #expect(try names(store, "Produce aisle and more").isEmpty)

    let pantry = try #require(try store.read { try $0.records(.category, semanticKey: "pantry") }.first)
    try store.write { try $0.tombstoneRecord(.category, id: pantry.id, at: Fixtures.epoch) }
    #expect(try names(store, "pa").isEmpty)
  }

  @Test func theSQLiteStoreAnswersItFromTheNameIndex() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    _ = try SQLiteStore(path: path)
    for table in ["category", "tag", "ingredientTemplate", "recipe", "weeklyList"] {
      let index = try #require(try SQLiteInspector.indexSQL(path, "\(table)_displayName"), "\(table) has no name index")
      #expect(index.contains("COLLATE NOCASE"))
    }
    #expect(try SQLiteInspector.indexSQL(path, "book_title")?.contains("COLLATE NOCASE") == true)
    // The statement the backend issues for the filter: a range of the index, not a scan.
    let plan = try SQLiteInspector.queryPlan(
      path, "SELECT * FROM category WHERE deletedAt IS NULL AND \"displayName\" LIKE 'Pro%' ESCAPE '\\'")
    #expect(plan.contains { $0.contains("USING INDEX category_displayName") }, "\(plan)")
  }
}
