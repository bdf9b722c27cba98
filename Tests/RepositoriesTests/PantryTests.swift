import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// The pantry: what is on hand, what add-recipe skips, and what can be made.
@Suite("Pantry")
struct PantryTests {
  private func kitchen(_ backend: TestBackend) throws -> Library {
    let library = try makeLibrary(backend)
    _ = try library.ingredients.getOrCreate("salt", isStaple: true)
    _ = try library.recipes.create(RecipeDraft(name: "Fried Rice", ingredients: ["3 cups rice", "2 eggs", "1 tsp salt", "½ cup peas"]))
    _ = try library.recipes.create(RecipeDraft(name: "Omelette", ingredients: ["3 eggs", "pinch of salt"]))
    _ = try library.recipes.create(RecipeDraft(name: "Pea Soup", ingredients: ["2 cups peas", "1 l stock", "1 onion"]))
    _ = try library.lists.create("Week", week: "2026-W47")
    return library
  }

  @Test(arguments: TestBackend.allCases)
  func addListAndRemove(_ backend: TestBackend) throws {
    let library = try kitchen(backend)
    _ = try library.pantry.add("Eggs")
    _ = try library.pantry.add("rice")
    _ = try library.pantry.add("egg")  // already on hand: nothing new
    #expect(try library.pantry.all().map(\.displayName) == ["egg", "rice"])
    _ = try library.pantry.remove("EGGS")
    #expect(try library.pantry.all().map(\.displayName) == ["rice"])
    let notThere = try expectUnchanged(library) { _ = try library.pantry.remove("eggs") }
    #expect(notThere?.description.contains("not in the pantry") == true)
    #expect(try expectUnchanged(library) { _ = try library.pantry.remove("caviar") } == .notFound(.ingredientTemplate, "caviar"))
    #expect(try expectUnchanged(library) { _ = try library.pantry.add("  ") } != nil)
  }

  @Test(arguments: TestBackend.allCases)
  func addRecipeSkipsStaplesAndPantryUnlessAsked(_ backend: TestBackend) throws {
    let library = try kitchen(backend)
    _ = try library.pantry.add("rice")
    let addition = try library.lists.addRecipe("Fried Rice", to: "Week")
    #expect(addition.added.map(\.displayName) == ["egg", "pea"])
    #expect(addition.skipped == ["rice", "salt"])
    let all = try library.lists.addRecipe("Fried Rice", to: "Week", includeOnHand: true)
    #expect(all.added.count == 4)
    #expect(all.skipped == [])
  }

  @Test(arguments: TestBackend.allCases)
  func suggestionsRankByMissingIngredientsThenByUse(_ backend: TestBackend) throws {
    let library = try kitchen(backend)
    var ranked = try library.pantry.suggestions()
    // Salt is a staple, so the omelette misses only eggs.
    #expect(ranked.map(\.recipe.displayName) == ["Omelette", "Fried Rice", "Pea Soup"])
    #expect(ranked.map(\.missing) == [["egg"], ["rice", "egg", "pea"], ["pea", "stock", "onion"]])
    _ = try library.pantry.add("eggs")
    _ = try library.pantry.add("peas")
    ranked = try library.pantry.suggestions()
    #expect(ranked.map(\.missing.count) == [0, 1, 2])
    // Equal missing counts: the most cooked first.
    _ = try library.pantry.add("rice")
    _ = try library.recipes.cooked("Fried Rice")
    let cooked = try library.recipes.cooked("Fried Rice")
    #expect(cooked.usageCount == 2)
    #expect(cooked.lastUsed == Fixtures.epoch)
    #expect(try library.pantry.suggestions().map(\.recipe.displayName) == ["Fried Rice", "Omelette", "Pea Soup"])
    #expect(try expectUnchanged(library) { _ = try library.recipes.cooked("Nothing") } == .notFound(.recipe, "Nothing"))
  }
}
