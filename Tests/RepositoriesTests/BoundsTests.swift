import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Every number a user types is bounded and names hold no control characters: each
/// refusal names the field and the reason, and writes nothing.
@Suite("Bounds on what users type")
struct BoundsTests {
  static func reason(_ error: RepositoryError?) -> String? {
    if case .invalidValue(_, _, let reason)? = error { return reason }
    if case .invalidIngredientLine(_, _, let reason)? = error { return reason }
    return nil
  }

  @Test(arguments: TestBackend.allCases)
  func listQuantitiesAreAboveZeroAndAtMostOneHundredThousand(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.lists.create("Groceries", week: "2026-W47")
    for quantity in ["-3", "0", "1e400", "100001", "-0.5 l"] {
      let error = try expectUnchanged(library) { _ = try library.lists.addItem("milk", quantity: quantity, to: "Groceries") }
      #expect(Self.reason(error)?.hasPrefix("the amount must be a number above 0 and at most 100,000") == true, "\(quantity)")
    }
    for quantity in ["2", "1.5 l", "1-2 l", "½ cup", "a handful", "100000"] {
      #expect(try library.lists.addItem("milk \(quantity)", quantity: quantity, to: "Groceries").quantity == quantity)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func ingredientLineAmountsAreBounded(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let error = try expectUnchanged(library) {
      _ = try library.recipes.create(RecipeDraft(name: "Bread", ingredients: ["99999999999999999999999 cups flour"]))
    }
    #expect(
      error
        == .invalidIngredientLine(
          number: 1, line: "99999999999999999999999 cups flour", reason: "the amount must be a number above 0 and at most 100,000"
        ))
    guard case .created = try library.recipes.create(RecipeDraft(name: "Bread", ingredients: ["500 g flour", "salt to taste"])) else {
      Issue.record("a recipe within bounds was not created")
      return
    }
  }

  @Test(arguments: TestBackend.allCases)
  func recipeTimesAreAtMostThirtyDays(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    for text in ["99999999999h", "721h", "99999999999999999999h", "PT9999999999999H", "99999999999999999:00", "9223372036854775807"] {
      let error = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Ferment", prepTime: text)) }
      #expect(Self.reason(error) != nil, "\(text)")
    }
    #expect(
      Self.reason(try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Ferment", prepTime: "721h")) })
        == "longer than 30 days")
    guard case .created(let recipe) = try library.recipes.create(RecipeDraft(name: "Ferment", prepTime: "720h")) else {
      Issue.record("30 days was refused")
      return
    }
    #expect(recipe.prepTime == "PT720H")
  }

  @Test(arguments: TestBackend.allCases)
  func recipeTimesKeepTheirSeconds(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let draft = RecipeDraft(name: "Soft Eggs", prepTime: "PT1M30S", cookTime: "6 min 30 sec")
    guard case .created(let recipe) = try library.recipes.create(draft) else {
      Issue.record("not created")
      return
    }
    #expect(recipe.prepTime == "PT1M30S")
    #expect(recipe.cookTime == "PT6M30S")
    #expect(recipe.totalTime == "PT8M", "prep and cook add up, seconds included")
    guard case .created(let other) = try library.recipes.create(RecipeDraft(name: "Stew", prepTime: "1:30", cookTime: "90")) else {
      Issue.record("not created")
      return
    }
    #expect(other.prepTime == "PT1H30M" && other.cookTime == "PT1H30M" && other.totalTime == "PT3H")
  }

  @Test(arguments: TestBackend.allCases)
  func categorySortPositionsAreFromZeroToAMillion(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    for position: Int64 in [-5, -1, 1_000_001, .max] {
      let error = try expectUnchanged(library) { _ = try library.categories.getOrCreate("Dairy", sortOrder: position) }
      #expect(error == .invalidValue(field: "sort", value: String(position), reason: "use a position from 0 to 1000000"))
    }
    #expect(try library.categories.getOrCreate("Dairy", sortOrder: 1_000_000).sortOrder == 1_000_000)
  }

  @Test(arguments: TestBackend.allCases)
  func namesWithControlCharactersAreRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let error = try expectUnchanged(library) { _ = try library.categories.getOrCreate("Pro\u{0}duce") }
    #expect(error == .invalidValue(field: "name", value: "Pro�duce", reason: "holds a control character (U+0000) at character 4"))
    // ASCII controls that are not whitespace, low and high, and DEL.
    for name in ["egg\u{1B}[31m", "milk\u{7F}", "\u{7}rice", "\u{1}oat", "rye\u{1F}"] {
      #expect(
        Self.reason(try expectUnchanged(library) { _ = try library.ingredients.getOrCreate(name) })?.contains("control character") == true,
        "\(name.debugDescription)")
      #expect(
        Self.reason(try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: name)) })?.contains("control character")
          == true)
    }
    // Whitespace control characters inside a name are collapsed, as before.
    #expect(try library.categories.getOrCreate("Fresh\tProduce").displayName == "Fresh Produce")
  }
}
