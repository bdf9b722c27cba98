import Foundation
import Model
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

/// `contains` on a recipe's searched fields finds the same records on the SQLite backend,
/// which sieves rows through its trigram index, as in memory, which reads every record;
/// the index follows inserts, edits and deletes, and a file without it gets it.
@Suite("Text search index")
struct TextSearchTests {
  static let recipes: [Record] = [
    Fixtures.recipe("Egg Fried Rice", ingredients: ["3 cups cooked RICE", "2 eggs"], keywords: ["weeknight"]),
    Fixtures.recipe("Crème Brûlée", ingredients: ["2 cups crème fraîche", "sugar"]),
    Fixtures.recipe("Say \"Cheese\" Toast", ingredients: ["bread", "cheddar\\gouda"], keywords: ["snack/quick"]),
    Fixtures.recipe("Tomato Soup", ingredients: ["6 tomatoes", "1 onion"], keywords: ["Soup", "winter"]),
  ]

  /// Needles: long and short, any case, beyond ASCII, quotes, backslashes, slashes, and
  /// text that only spans two list elements.
  static let needles = [
    "rice", "RICE", "egg", "ri", "e", "crème", "CRÈME", "brûl", "fraîche", "\"Cheese\"", "r\\g", "snack/q",
    "week", "soup", "2 eggs", "eggs\n3", "on", "xyz", "tomatoes", "6 tom",
  ]

  static func query(_ needle: String) -> RecordQuery {
    RecordQuery(.recipe, filters: [.anyOf(["displayName", "recipeIngredient", "keywords"].map { .contains($0, needle) })])
  }

  func names(_ store: any Store, _ needle: String) throws -> [String] {
    try store.read { try $0.fetch(Self.query(needle)) }.map(\.displayText)
  }

  func stores() throws -> (memory: any Store, sqlite: any Store, path: String) {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let memory = try TestBackend.memory.makeStore(), sqlite = try SQLiteStore(path: path)
    for store in [memory, sqlite] {
      try store.write { writer in for recipe in Self.recipes { try writer.insertRecord(recipe) } }
    }
    return (memory, sqlite, path)
  }

  @Test func findsWhatAScanFindsForEveryNeedle() throws {
    let (memory, sqlite, _) = try stores()
    for needle in Self.needles {
      #expect(try names(sqlite, needle) == names(memory, needle), "needle \(needle.debugDescription)")
    }
    #expect(try names(sqlite, "rice") == ["Egg Fried Rice"])
    #expect(try names(sqlite, "crème") == ["Crème Brûlée"])
    // One field on its own, and a needle in no recipe.
    #expect(
      try sqlite.read { try $0.fetch(RecordQuery(.recipe, filters: [.contains("keywords", "soup")])) }.map(\.displayText) == ["Tomato Soup"]
    )
    #expect(try names(sqlite, "zzz").isEmpty)
  }

  @Test func followsEditsAndDeletes() throws {
    let (memory, sqlite, _) = try stores()
    var rice = Self.recipes[0]
    rice["displayName"] = .text("Kimchi Fried Rice")
    rice["recipeIngredient"] = .textList(["1 cup kimchi", "3 cups rice"])
    for store in [memory, sqlite] {
      try store.write { writer in
        try writer.updateRecord(rice)
        try writer.tombstoneRecord(.recipe, id: Self.recipes[3].id, at: Fixtures.epoch)
      }
    }
    for needle in ["kimchi", "egg", "rice", "tomato", "soup"] {
      #expect(try names(sqlite, needle) == names(memory, needle), "needle \(needle)")
    }
    #expect(try names(sqlite, "kimchi") == ["Kimchi Fried Rice"])
    #expect(try names(sqlite, "2 eggs").isEmpty)
  }

  @Test func aFileWithoutTheIndexGetsItFilledWhenOpened() throws {
    let (_, sqlite, path) = try stores()
    try sqlite.close()
    try SQLiteInspector.execute(path, "DROP TABLE recipe_search")
    let reopened = try SQLiteStore(path: path)
    #expect(try names(reopened, "fraîche") == ["Crème Brûlée"])
    #expect(try SQLiteInspector.tableSQL(path, "recipe_search")?.contains("trigram") == true)
  }

  @Test func theSearchReadsTheRowsTheIndexSieves() throws {
    let (_, sqlite, path) = try stores()
    try sqlite.close()
    let plan = try SQLiteInspector.queryPlan(
      path,
      "SELECT * FROM recipe WHERE deletedAt IS NULL AND (rowid IN (SELECT rowid FROM recipe_search WHERE recipe_search MATCH '\"rice\"') AND instr(lower(displayName), 'rice') > 0)"
    )
    #expect(plan.contains { $0.contains("recipe_search VIRTUAL TABLE") }, "\(plan)")
    #expect(!plan.contains("SCAN recipe"), "\(plan)")
  }
}
