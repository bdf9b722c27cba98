import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Lists by aisle with summed amounts, the aisle order, densities and scaling.
@Suite("Shopping lists")
struct ShoppingListTests {
  private func lines(_ library: Library, _ list: String = "Week", units: UnitPreference? = nil, all: Bool = false) throws -> [(
    aisle: String, name: String, amount: String
  )] {
    try library.lists.shoppingList(list, units: units, includeDone: all).aisles.flatMap { aisle in
      aisle.lines.map { (aisle.category?.displayName ?? "-", $0.name, $0.amountText) }
    }
  }

  private func stocked(_ backend: TestBackend) throws -> Library {
    let library = try makeLibrary(backend)
    _ = try library.categories.getOrCreate("Produce")
    _ = try library.categories.getOrCreate("Dairy")
    _ = try library.categories.getOrCreate("Pantry")
    _ = try library.ingredients.getOrCreate("garlic", category: "Produce")
    _ = try library.ingredients.getOrCreate("milk", category: "Dairy")
    _ = try library.ingredients.getOrCreate("rice", category: "Pantry")
    _ = try library.lists.create("Week", week: "2026-W47")
    return library
  }

  @Test(arguments: TestBackend.allCases)
  func linesFollowTheCategoriesOrderWithUncategorizedLast(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    for item in ["2 cups rice", "dish soap", "1 l milk", "4 cloves garlic", "3 cloves garlic"] {
      _ = try library.lists.addItem(item, to: "Week")
    }
    _ = try library.lists.addItem("milk", quantity: "500 ml", to: "Week")
    #expect(try lines(library).map(\.name) == ["garlic", "milk", "rice", "dish soap"])
    #expect(try lines(library).map(\.aisle) == ["Produce", "Dairy", "Pantry", "-"])
    #expect(try lines(library).map(\.amount) == ["7 cloves", "1.5 l", "2 cups", ""])

    _ = try library.categories.move("Dairy", before: "Produce")
    #expect(try lines(library).map(\.aisle) == ["Dairy", "Produce", "Pantry", "-"])
    _ = try library.categories.setOrder(["Pantry", "Produce"])
    #expect(try lines(library).map(\.aisle) == ["Pantry", "Produce", "Dairy", "-"])
  }

  @Test(arguments: TestBackend.allCases)
  func doneLinesHideOrSinkToTheEndOfTheirAisle(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.ingredients.getOrCreate("onion", category: "Produce")
    for item in ["1 onion", "2 cloves garlic", "1 l milk"] { _ = try library.lists.addItem(item, to: "Week") }
    _ = try library.lists.check("onion", on: "Week")
    let shown = try library.lists.shoppingList("Week")
    #expect(shown.hiddenDoneLines == 1)
    #expect(try lines(library).map(\.name) == ["garlic", "milk"])
    #expect(try lines(library, all: true).map(\.name) == ["garlic", "onion", "milk"])
  }

  @Test(arguments: TestBackend.allCases)
  func unitPreferenceChangesOnlyHowAmountsRead(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.lists.addItem("2 cups milk", to: "Week")
    _ = try library.lists.addItem("1 l milk", to: "Week")
    #expect(try lines(library).map(\.amount) == ["6 ¼ cups"])
    #expect(try lines(library, units: .metric).map(\.amount) == ["1.47 l"])
    let amount = try #require(try library.lists.shoppingList("Week", units: .metric).aisles.first?.lines.first?.amounts.first)
    // (2 × 236.5882365 + 1000) ml in litres, exactly.
    #expect(amount.exact == "1473176473/1000000000")
    #expect(amount.unit == "l")
  }

  @Test(arguments: TestBackend.allCases)
  func volumeAndMassCombineThroughTheTemplatesDensity(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.lists.addItem("1 cup rice", to: "Week")
    _ = try library.lists.addItem("100 g rice", to: "Week")
    #expect(try lines(library).map(\.amount) == ["1 cup + 100 g"])
    let rice = try library.ingredients.getOrCreate("rice", gramsPerCup: 190)
    #expect(rice.gramsPerCup == 190)
    #expect(try lines(library).map(\.amount) == ["290 g"])
    // A built-in density needs no setting: butter is 227 g a cup.
    _ = try library.lists.addItem("½ cup butter", to: "Week")
    _ = try library.lists.addItem("100 g butter", to: "Week")
    #expect(try lines(library).last?.amount == "214 g")  // 113.5 g + 100 g
  }

  @Test(arguments: TestBackend.allCases)
  func aDensityOutOfRangeIsRefusedAndChangesNothing(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    for bad in [0.0, -3, 1_001, .infinity, .nan] {
      let error = try expectUnchanged(library) { _ = try library.ingredients.getOrCreate("rice", gramsPerCup: bad) }
      #expect(error?.description.contains("grams-per-cup") == true, "\(bad)")
    }
  }

  @Test(arguments: TestBackend.allCases)
  func movingACategoryWritesOnlyItWhenThereIsRoom(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    let order = try library.categories.setOrder(["Produce", "Dairy", "Pantry"])
    #expect(order.map(\.sortOrder) == [0, CategoryRepository.orderStep, 2 * CategoryRepository.orderStep])
    let before = try library.store.changeLog().count
    let moved = try library.categories.move("Pantry", before: "Dairy")
    #expect(moved.map(\.displayName) == ["Produce", "Pantry", "Dairy"])
    #expect(try library.store.changeLog().count == before + 1)
    #expect(try library.categories.all().map(\.displayName) == ["Produce", "Pantry", "Dairy"])
  }

  @Test(arguments: TestBackend.allCases)
  func badMovesAndOrdersAreRefusedAndChangeNothing(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    #expect(try expectUnchanged(library) { _ = try library.categories.move("Dairy", before: "dairy") } != nil)
    #expect(try expectUnchanged(library) { _ = try library.categories.move("Dairy", before: "Bakery") } == .notFound(.category, "Bakery"))
    #expect(try expectUnchanged(library) { _ = try library.categories.setOrder(["Dairy", "Produce", "DAIRY"]) } != nil)
  }

  @Test(arguments: TestBackend.allCases)
  func recipesScaleByServingsOrFactorAndKeepLinesWithoutAmounts(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.recipes.create(
      RecipeDraft(
        name: "Rice Pudding", ingredients: ["⅓ cup rice", "2 cups milk", "2 (14.5 oz) cans coconut milk", "salt to taste"],
        yield: "4 servings"))
    let (details, factor) = try library.recipes.details("Rice Pudding", scaledBy: .servings(6))
    #expect(factor == 1.5)
    #expect(details.lines.map(\.ingredient.quantity) == [0.5, 3, 3, nil])
    _ = try library.lists.addRecipe("Rice Pudding", to: "Week", scaledBy: .factor(2))
    #expect(try library.lists.items(of: "Week").map(\.quantity) == ["2/3 cup", "4 cup", "4 (14.5 oz) can", nil])
    _ = try library.lists.addRecipe("Rice Pudding", to: "Week")
    #expect(try lines(library).map(\.name) == ["milk", "rice", "coconut milk", "salt"])
    #expect(try lines(library).map(\.amount) == ["6 cups", "1 cup", "6 cans (14 ½ oz each)", ""])
  }

  @Test(arguments: TestBackend.allCases)
  func scalesOutOfRangeOrWithoutAYieldAreRefused(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Toast", ingredients: ["2 slices bread"]))
    _ = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["1 l stock"], yield: "4 bowls"))
    for scale: RecipeScale in [.servings(0), .servings(1_001), .factor(0), .factor(101), .factor(.nan), .servings(-2)] {
      #expect(try expectUnchanged(library) { _ = try library.lists.addRecipe("Soup", to: "Week", scaledBy: scale) } != nil, "\(scale)")
    }
    let noYield = try expectUnchanged(library) { _ = try library.lists.addRecipe("Toast", to: "Week", scaledBy: .servings(2)) }
    #expect(noYield?.description.contains("no yield") == true)
    #expect(RecipeScale.servings(inYield: "Serves 4-6") == 4)
    #expect(RecipeScale.servings(inYield: "a crowd") == nil)
  }
}
