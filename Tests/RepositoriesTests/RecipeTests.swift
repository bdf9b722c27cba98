import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@Suite("Recipes")
struct RecipeTests {
  func created(_ creation: RecipeCreation) throws -> Recipe {
    guard case .created(let recipe) = creation else { throw RepositoryError.invalidValue(field: "test", value: "", reason: "not created") }
    return recipe
  }

  @Test(arguments: TestBackend.allCases)
  func linesAreNamedAfterTheirRecipeNextToItOrByNameWhenSeeded(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let lines = ["2 eggs", "1 cup rice", "Salt"]
    let made = try created(library.recipes.create(RecipeDraft(name: "Egg Fried Rice", ingredients: lines)))
    let madeLines = try library.recipes.details(made.id.uuidString).lines.map(\.ingredient)
    #expect(madeLines.map(\.id) == (0..<3).map { DeterministicID.child(of: made.id, at: $0) })
    // A seeded recipe is made on every device, by every version: its lines keep the
    // name-based ids all of them derive.
    let seeded = try created(library.recipes.create(RecipeDraft(name: "Seeded Rice", ingredients: lines), seedKey: "rice"))
    let seededLines = try library.recipes.details(seeded.id.uuidString).lines.map(\.ingredient)
    #expect(seededLines.map(\.id) == (0..<3).map { DeterministicID.uuidV5(namespace: seeded.id, name: "line:\($0)") })
  }

  @Test(arguments: TestBackend.allCases)
  func creatingResolvesLinesToTemplatesTagsAndBook(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let recipe = try created(
      library.recipes.create(
        RecipeDraft(
          name: "Classic Tomato Pasta", ingredients: ["2 ½ cups diced tomatoes (about 3)", "400 g spaghetti", "Salt"],
          cuisine: "Italian", prepTime: "10", cookTime: "1h5m", tags: ["Weeknight"], book: "Salt, Fat, Acid, Heat",
          bookAuthor: "Samin Nosrat", page: 234
        )))
    #expect(recipe.titleKey == "classic tomato pasta")
    #expect(recipe.normalizedIngredients == ["tomato", "spaghetti", "salt"])
    #expect(recipe.prepTime == "PT10M" && recipe.cookTime == "PT1H5M" && recipe.totalTime == "PT1H15M")
    #expect(recipe.sourceType == .book && recipe.sourcePageNumber == 234)
    let details = try library.recipes.details("classic tomato pasta")
    #expect(details.lines.map { $0.template?.canonicalName } == ["tomato", "spaghetti", "salt"])
    #expect(details.lines[0].ingredient.quantity == 2.5)
    #expect(details.lines[0].ingredient.unit == "cup")
    #expect(details.lines[0].ingredient.notes == "diced; about 3")
    #expect(details.book?.title == "Salt, Fat, Acid, Heat")
    #expect(details.tags.map(\.displayName) == ["Weeknight"])
    #expect(try library.ingredients.find("tomatoes")?.usageCount == 1)
  }

  @Test(arguments: TestBackend.allCases)
  func aSimilarTitleIsReportedAndCreatedOnlyWhenAskedTo(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let first = try created(library.recipes.create(RecipeDraft(name: "Mom's Lasagna")))
    let before = try library.store.dump()
    #expect(try library.recipes.create(RecipeDraft(name: "Moms Lasagna", ingredients: ["1 egg"])) == .similarExists([first]))
    #expect(try library.store.dump() == before)
    let second = try created(library.recipes.create(RecipeDraft(name: "Moms Lasagna"), allowSimilar: true))
    let groups = try library.recipes.duplicates()
    #expect(groups.count == 1)
    #expect(Set(groups[0].members.map(\.id)) == [first.id, second.id])
    #expect(groups[0].key == "moms lasagna")
  }

  @Test(arguments: TestBackend.allCases)
  func listingFiltersByCuisineAndSearchLooksAtNamesIngredientsAndKeywords(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Tomato Pasta", ingredients: ["3 tomatoes"], cuisine: "Italian"))
    _ = try library.recipes.create(
      RecipeDraft(name: "Egg Fried Rice", ingredients: ["2 eggs", "3 cups cooked rice"], cuisine: "Asian", keywords: ["leftovers"]))
    _ = try library.recipes.create(RecipeDraft(name: "Crème Brûlée", ingredients: ["2 cups cream"], cuisine: "French"))
    #expect(try library.recipes.all(cuisine: "italian").map(\.displayName) == ["Tomato Pasta"])
    #expect(try library.recipes.all().count == 3)
    #expect(try library.recipes.search("rice").map(\.displayName) == ["Egg Fried Rice"])
    #expect(try library.recipes.search("TOMATOES").map(\.displayName) == ["Tomato Pasta"])
    #expect(try library.recipes.search("leftover").map(\.displayName) == ["Egg Fried Rice"])
    #expect(try library.recipes.search("creme").map(\.displayName) == ["Crème Brûlée"])
    #expect(try library.recipes.search("egg").map(\.displayName) == ["Egg Fried Rice"])
    #expect(try library.recipes.search("nothing like this").isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func deletingARecipeRemovesItsLinesAndClearsItsPlannedMeals(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let pasta = try created(library.recipes.create(RecipeDraft(name: "Pasta", ingredients: ["pasta", "2 tomatoes"])))
    _ = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["onion"]))
    _ = try library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: "Pasta")
    _ = try library.meals.plan(date: "2024-12-14", mealType: "lunch", recipe: "Soup")
    _ = try library.lists.create("Groceries", week: "2024-12-13")
    _ = try library.lists.addRecipe("Pasta", to: "Groceries")
    _ = try library.recipes.delete("pasta")
    try library.store.read { (reader) throws in
      #expect(try reader.count(RecordQuery(.recipeIngredient, filters: [.references("recipe", pasta.id)])) == 0)
      #expect(try reader.count(RecordQuery(.recipeIngredient)) == 1)
      #expect(try reader.count(RecordQuery(.plannedMeal)) == 1)
      #expect(try reader.count(RecordQuery(.groceryListItem, filters: [.references("sourceRecipe", pasta.id)])) == 0)
    }
    #expect(try library.meals.meal(date: "2024-12-13", mealType: "dinner") == nil)
    #expect(try library.lists.items(of: "Groceries").count == 2)
    #expect(try library.recipes.find("Pasta") == nil)
  }

  @Test(arguments: TestBackend.allCases)
  func mergingKeepsOneRecipeWithBothRelationships(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let keeper = try created(library.recipes.create(RecipeDraft(name: "Lasagna", ingredients: ["pasta sheets"], tags: ["Italian"])))
    let other = try created(
      library.recipes.create(
        RecipeDraft(name: "lasagna", ingredients: ["ricotta"], cuisine: "Italian", tags: ["Baked"]), allowSimilar: true))
    _ = try library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: other.id.uuidString)
    let merged = try library.recipes.merge(other.id.uuidString, into: keeper.id.uuidString)
    #expect(merged.id == keeper.id)
    #expect(merged.recipeCuisine == "Italian")
    #expect(merged.tags.count == 2)
    #expect(try library.meals.meal(date: "2024-12-13", mealType: "dinner")?.recipe == keeper.id)
    #expect(try library.recipes.duplicates().isEmpty)
    #expect(try library.recipes.details("Lasagna").lines.map(\.ingredient.rawLine) == ["pasta sheets"])
    #expect(try library.counts()[.recipeIngredient] == 1)
  }
}

@Suite("Planned meals")
struct PlannedMealTests {
  @Test(arguments: TestBackend.allCases)
  func planningASlotAgainReplacesItsRecipe(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Chicken Pasta"))
    _ = try library.recipes.create(RecipeDraft(name: "Fish Tacos"))
    let first = try library.meals.plan(date: "2024-12-13", mealType: "Dinner", recipe: "chicken pasta")
    #expect(first.replaced == nil)
    #expect(first.meal.slotKey == "2024-12-13-dinner")
    #expect(first.meal.id == DeterministicID.make(kind: .plannedMeal, semanticKey: "2024-12-13-dinner"))
    let second = try library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: "Fish Tacos")
    #expect(second.meal.id == first.meal.id)
    #expect(second.replaced?.displayName == "Chicken Pasta")
    #expect(try library.counts()[.plannedMeal] == 1)
    #expect(try library.meals.meal(date: "2024-12-13", mealType: "DINNER")?.recipe == second.recipe.id)
  }

  @Test(arguments: TestBackend.allCases)
  func aWeekShowsSevenDaysFromMonday(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Soup"))
    _ = try library.meals.plan(date: "2024-12-30", mealType: "dinner", recipe: "Soup")
    _ = try library.meals.plan(date: "2025-01-05", mealType: "lunch", recipe: "Soup")
    _ = try library.meals.plan(date: "2025-01-05", mealType: "breakfast", recipe: "Soup")
    _ = try library.meals.plan(date: "2025-01-06", mealType: "lunch", recipe: "Soup")
    let week = try library.meals.week("2025-01-01")
    #expect(week.week == "2025-W01")
    #expect(
      week.days.map(\.date.description) == [
        "2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02", "2025-01-03", "2025-01-04", "2025-01-05",
      ])
    #expect(week.days[0].slots.map(\.meal.mealType) == [.dinner])
    #expect(week.days[6].slots.map(\.meal.mealType) == [.breakfast, .lunch])
    #expect(week.days.flatMap(\.slots).count == 3)
    #expect(try library.meals.week("2025-W01") == week)
  }
}

@Suite("Weekly lists")
struct WeeklyListTests {
  @Test(arguments: TestBackend.allCases)
  func itemsForOneIngredientShowAsOneLine(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.ingredients.getOrCreate("milk")
    let list = try library.lists.create("Groceries", week: "2026-W47")
    #expect(list.weekIdentifier == "2026-W47")
    _ = try library.lists.addItem("Milk", quantity: "1 l", to: "Groceries")
    _ = try library.lists.addItem("eggs", quantity: "6", to: "groceries")
    _ = try library.lists.addItem("milk", quantity: "2 cups", to: list.id.uuidString)
    _ = try library.lists.addItem("Egg", to: "Groceries")
    let lines = try library.lists.shoppingList("Groceries").aisles.flatMap(\.lines)
    #expect(lines.map(\.name) == ["milk", "eggs"])
    #expect(lines.map(\.items.count) == [2, 2])
    #expect(lines[0].amountText == "1.47 l")
    #expect(lines[1].amountText == "6 (+1 without amount)")
    _ = try library.lists.check("milk", on: "Groceries")
    #expect(try library.lists.shoppingList("Groceries").aisles.flatMap(\.lines).map(\.name) == ["eggs"])
    #expect(try library.lists.shoppingList("Groceries", includeDone: true).aisles.flatMap(\.lines).map(\.isCompleted) == [false, true])
    _ = try library.lists.removeItem("EGGS", from: "Groceries")
    #expect(try library.lists.items(of: "Groceries").count == 2)
  }

  @Test(arguments: TestBackend.allCases)
  func anItemWrittenWithAnAmountIsReadLikeAnIngredientLine(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.ingredients.getOrCreate("Eggs")
    _ = try library.lists.create("Groceries", week: "2026-W47")
    let eggs = try library.lists.addItem("2 large eggs", to: "Groceries")
    #expect(eggs.displayName == "Eggs")
    #expect(eggs.quantity == "2 (large)")
    #expect(eggs.template != nil)
    let milk = try library.lists.addItem("1-2 l Milk", to: "Groceries")
    #expect(milk.displayName == "milk")
    #expect(milk.quantity == "1-2 l")
    #expect(milk.template == nil)
    _ = try library.lists.addItem("milk", to: "Groceries")
    _ = try library.lists.addItem("egg", to: "Groceries")
    let soda = try library.lists.addItem("7 Up", quantity: "2", to: "Groceries")
    #expect(soda.displayName == "7 Up")
    let lines = try library.lists.shoppingList("Groceries").aisles.flatMap(\.lines)
    #expect(lines.map(\.name) == ["Eggs", "milk", "7 Up"])
    #expect(lines.map(\.items.count) == [2, 2, 1])
    #expect(lines[0].amountText == "2 (+1 without amount)")
    #expect(lines[1].amountText == "1-2 l (+1 without amount)")
  }

  @Test(arguments: TestBackend.allCases)
  func listsMayShareANameAndThenNeedAnID(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let a = try library.lists.create("Groceries", week: "2026-W47")
    let b = try library.lists.create("Groceries", week: "2026-W48")
    #expect(try library.lists.all().map(\.weekIdentifier) == ["2026-W48", "2026-W47"])
    #expect(throws: RepositoryError.ambiguous(.weeklyList, "Groceries", ids: [a.id, b.id].sorted(by: UUID.keeperOrder))) {
      _ = try library.lists.addItem("milk", to: "Groceries")
    }
    _ = try library.lists.delete(a.id.uuidString)
    #expect(try library.lists.all(week: "2026-W48").map(\.id) == [b.id])
  }

  @Test(arguments: TestBackend.allCases)
  func aTransactionThatFailsLeavesNothing(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try library.transaction { tx in
        _ = try tx.categories.getOrCreate("Produce")
        _ = try tx.recipes.create(RecipeDraft(name: "Soup", ingredients: ["onion"]))
        throw Stop()
      }
    }
    #expect(try library.store.dump().isEmpty)
  }
}
