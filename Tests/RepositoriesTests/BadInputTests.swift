import Foundation
import Model
import Repositories
import TestSupport
import Testing

@Suite("Bad input is a typed error and writes nothing")
struct BadInputTests {
  @Test(arguments: TestBackend.allCases)
  func emptyAndOverlongNamesAreRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    for name in ["", "   ", "\t\n"] {
      #expect(try expectUnchanged(library) { _ = try library.categories.getOrCreate(name) } == .emptyName(.category))
      #expect(try expectUnchanged(library) { _ = try library.tags.getOrCreate(name) } == .emptyName(.tag))
      #expect(try expectUnchanged(library) { _ = try library.ingredients.getOrCreate(name) } == .emptyName(.ingredientTemplate))
      #expect(try expectUnchanged(library) { _ = try library.books.getOrCreate(title: name, author: nil) } == .emptyName(.book))
      #expect(try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: name)) } == .emptyName(.recipe))
      #expect(try expectUnchanged(library) { _ = try library.lists.create(name, week: "2026-W47") } == .emptyName(.weeklyList))
    }
    let long = String(repeating: "x", count: NameRules.maximumLength + 1)
    #expect(
      try expectUnchanged(library) { _ = try library.categories.getOrCreate(long) }
        == .nameTooLong(.category, length: NameRules.maximumLength + 1, maximum: NameRules.maximumLength))
    #expect(
      try library.categories.getOrCreate(String(repeating: "y", count: NameRules.maximumLength)).displayName.count
        == NameRules.maximumLength)
  }

  @Test(arguments: TestBackend.allCases)
  func unknownMealTypesAndImpossibleDatesAreRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Pasta"))
    #expect(
      try expectUnchanged(library) { _ = try library.meals.plan(date: "2024-12-13", mealType: "brunch", recipe: "Pasta") }
        == .unknownMealType("brunch"))
    for date in ["2023-02-29", "2024-13-01", "2024-04-31", "13/12/2024", "2024-1-5", "tomorrow", ""] {
      #expect(
        try expectUnchanged(library) { _ = try library.meals.plan(date: date, mealType: "dinner", recipe: "Pasta") } == .invalidDate(date))
    }
    #expect(try expectUnchanged(library) { _ = try library.meals.week("2024-W60") } == .invalidWeek("2024-W60"))
    #expect(try expectUnchanged(library) { _ = try library.lists.create("Groceries", week: "next week") } == .invalidWeek("next week"))
  }

  @Test(arguments: TestBackend.allCases)
  func unknownNamesAndIDsAreNotFound(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let id = UUID().uuidString
    #expect(try expectUnchanged(library) { _ = try library.categories.rename(id, to: "X") } == .notFound(.category, id))
    #expect(try expectUnchanged(library) { _ = try library.recipes.delete("Nothing") } == .notFound(.recipe, "Nothing"))
    #expect(
      try expectUnchanged(library) { _ = try library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: id) }
        == .notFound(.recipe, id))
    #expect(
      try expectUnchanged(library) { _ = try library.meals.unplan(date: "2024-12-13", mealType: "dinner") }
        == .notFound(.plannedMeal, "2024-12-13-dinner"))
    #expect(try expectUnchanged(library) { _ = try library.lists.addItem("milk", to: "Nope") } == .notFound(.weeklyList, "Nope"))
    #expect(
      try expectUnchanged(library) { _ = try library.ingredients.addAlias("x", to: "unknown") } == .notFound(.ingredientTemplate, "unknown")
    )
  }

  @Test(arguments: TestBackend.allCases)
  func badRecipeFieldsAreRefusedWithTheirNames(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let lineError = try expectUnchanged(library) {
      _ = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["1 onion", "   ", "salt"]))
    }
    #expect(lineError == .invalidIngredientLine(number: 2, line: "   ", reason: "the line is empty"))
    guard
      case .invalidIngredientLine(3, _, _)? = try expectUnchanged(
        library,
        {
          _ = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["1 onion", "2 tbsp oil", "2 cups"]))
        })
    else {
      Issue.record("a line with only a quantity and unit was accepted")
      return
    }
    let badTime = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Soup", prepTime: "soon")) }
    #expect(badTime?.description.contains("prep time 'soon'") == true)
    let badURL = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Soup", url: "example.com/soup")) }
    #expect(badURL?.description.contains("url 'example.com/soup'") == true)
    let badPage = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Soup", book: "Book", page: 0)) }
    #expect(badPage?.description.contains("page '0'") == true)
    let punctuation = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "!!!")) }
    #expect(punctuation?.description.contains("name '!!!'") == true)
  }

  @Test(arguments: TestBackend.allCases)
  func aTemplateUsedByRecipesCannotBeDeleted(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Tomato Pasta", ingredients: ["400 g spaghetti", "3 tomatoes"]))
    let error = try expectUnchanged(library) { _ = try library.ingredients.delete("tomato") }
    #expect(error == .inUse(.ingredientTemplate, "tomato", usedBy: ["recipe 'Tomato Pasta'"]))
  }
}
