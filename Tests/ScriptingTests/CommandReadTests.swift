import Foundation
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Scripting
import TestSupport
import Testing

@testable import CommandLanguage

/// Commands read the records they show, not every record of a kind: on a kitchen much
/// larger than any one answer, each command's reads stay near the size of its answer.
/// A command that regressed to "read the whole kind, then filter" reads hundreds.
@Suite("Commands read what they show")
final class CommandReadTests {
  let backend = ReadCountingBackend { clock in
    try SQLiteStore(path: try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path, clock: clock)
  }
  let session: Session
  let store: ReadCountingStore

  static let categories = 40, perCategory = 10, recipes = 60, weeks = 10

  init() throws {
    session = try Session(location: "counting", factory: StoreFactory(backends: [backend]), now: { Harness.fixedNow })
    store = try #require(backend.last)
    try session.library.transaction { tx in
      for index in 0..<Self.categories * Self.perCategory {
        _ = try tx.ingredients.getOrCreate(Self.ingredient(index), category: "aisle \(index % Self.categories)")
      }
      var recipeIDs: [String] = []
      for index in 0..<Self.recipes {
        let draft = RecipeDraft(
          name: "dish \(index)", ingredients: ["2 cups \(Self.ingredient(index))", "1 \(Self.ingredient(index + 1))"])
        guard case .created(let recipe) = try tx.recipes.create(draft) else { throw FixtureError(reason: "dish \(index) exists") }
        recipeIDs.append(recipe.id.uuidString)
      }
      let list = try tx.lists.create("Groceries", week: "2024-W50")
      for index in 0..<5 { _ = try tx.lists.addItem("2 \(Self.ingredient(index))", to: list.id.uuidString) }
      for day in 0..<Self.weeks * 7 {
        for meal in ["breakfast", "lunch", "dinner", "snack"] {
          _ = try tx.meals.plan(date: Self.day(day), mealType: meal, recipe: recipeIDs[day % recipeIDs.count])
        }
      }
    }
  }

  struct FixtureError: Error {
    let reason: String
  }

  /// "herb ba", "herb bb", …: two letters, so no ingredient line reads a number in it.
  static func ingredient(_ index: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return "herb \(letters[index / 26 % 26])\(letters[index % 26])"
  }

  /// The date `offset` days after 2024-12-13, "YYYY-MM-DD".
  static func day(_ offset: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let date = calendar.date(byAdding: .day, value: offset, to: Harness.fixedNow) ?? Harness.fixedNow
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }

  /// The records of `kind` running `command` read.
  func reads(_ kind: EntityKind, running command: String) throws -> Int {
    store.reset()
    try Interpreter(context: session).execute(command)
    return store.recordsRead[kind, default: 0]
  }

  @Test func showingACategoryReadsItsIngredientsOnly() throws {
    let shown = try Interpreter(context: session).execute("category show aisle 3").last?.json(command: "").rows("ingredients") ?? []
    #expect(shown.count == Self.perCategory)
    #expect(try reads(.ingredientTemplate, running: "category show aisle 3") == Self.perCategory)
    #expect(try reads(.ingredientTemplate, running: "ingredient list --category \"aisle 3\"") == Self.perCategory)
  }

  @Test func showingAListReadsTheCategoriesOfItsItemsOnly() throws {
    let categories = try reads(.category, running: "list show Groceries")
    #expect(categories >= 1 && categories <= 5 + 1, "read \(categories) of \(Self.categories) categories")
  }

  @Test func aWeekOfMealsReadsThatWeeksMealsOnly() throws {
    let week = try Interpreter(context: session).execute("meal week 2024-12-16").last?.json(command: "").rows("days") ?? []
    #expect(week.count == 7 * 4)
    #expect(try reads(.plannedMeal, running: "meal week 2024-12-16") == 7 * 4)
    #expect(store.scans.isEmpty, "meal week scans: \(store.scans)")
  }

  @Test func searchingRecipesSievesThemThroughTheTextIndex() throws {
    let found = try Interpreter(context: session).execute("recipe search dish 42").last?.json(command: "").rows("recipes") ?? []
    #expect(found.count == 1)
    #expect(try reads(.recipe, running: "recipe search dish 42") == 1)
    #expect(store.scans.isEmpty, "recipe search scans: \(store.scans)")
    // Two letters are too few for the index: that search reads every recipe.
    _ = try reads(.recipe, running: "recipe search di")
    #expect(store.scans.count == 1)
  }

  @Test func addingToAListFindsTheListByItsNameAlone() throws {
    try session.library.transaction { tx in
      for index in 0..<30 { _ = try tx.lists.create("Other list \(index)", week: "2024-W51") }
    }
    #expect(try reads(.weeklyList, running: "list add \"2 herb aa\" to groceries") == 1)
    #expect(store.scans.isEmpty, "list add scans: \(store.scans)")
    #expect(try reads(.weeklyList, running: "list add-recipe \"dish 3\" to GROCERIES") == 1)
    #expect(store.scans.filter { $0.kind == .weeklyList }.isEmpty, "list add-recipe scans: \(store.scans)")
  }

  /// `category add` of a name that exists reads that one category once (the
  /// get-or-create says whether it created it; no lookup of its own first).
  @Test func addingAnExistingCategoryReadsItOnce() throws {
    #expect(try reads(.category, running: "category add \"AISLE 3\"") == 1)
    #expect(store.scans.isEmpty, "category add scans: \(store.scans)")
  }

  @Test func countsReadTheCounterNotTheRecords() throws {
    let shown = try Interpreter(context: session).execute("counts").last?.json(command: "").rows("counts") ?? []
    #expect(shown.count == EntityKind.allCases.count)
    _ = try reads(.ingredientTemplate, running: "counts")
    #expect(store.recordsRead.isEmpty)
    #expect(store.queries.isEmpty, "counts ran \(store.queries)")
  }

  @Test func completingANameReadsTheNamesThatMatchOnly() throws {
    let completer = Completer(context: session)
    store.reset()
    #expect(
      completer.candidates(before: "recipe show ", word: "dish 5") == [
        "\"dish 5\"", "\"dish 50\"", "\"dish 51\"", "\"dish 52\"", "\"dish 53\"", "\"dish 54\"", "\"dish 55\"", "\"dish 56\"",
        "\"dish 57\"", "\"dish 58\"", "\"dish 59\"",
      ])
    #expect(store.recordsRead[.recipe, default: 0] == 11)
    store.reset()
    // 400 ingredients "herb aa" … "herb pj": ten start with "herb p".
    #expect(
      completer.candidates(before: "ingredient show herb ", word: "p") == ["pa", "pb", "pc", "pd", "pe", "pf", "pg", "ph", "pi", "pj"])
    #expect(store.recordsRead[.ingredientTemplate, default: 0] == 10)
  }
}
