import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// What imported recipes need from the repository: author and date published kept, texts
/// as long as real pages write them, and a way to ask whether a line would be refused.
@Suite struct RecipeImportFieldTests {
  @Test(arguments: TestBackend.allCases)
  func authorAndDatePublishedAreKept(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    guard
      case .created(let recipe) = try library.recipes.create(
        RecipeDraft(name: "Dal", author: "  Ada   Baker ", datePublished: "2024-03-05"))
    else {
      Issue.record("not created")
      return
    }
    #expect(recipe.author == "Ada Baker")
    #expect(recipe.datePublished == "2024-03-05")
  }

  @Test(arguments: TestBackend.allCases)
  func aBadDatePublishedIsRefusedAndChangesNothing(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let error = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Dal", datePublished: "2024-02-30")) }
    #expect(error == .invalidValue(field: "published", value: "2024-02-30", reason: "use a date written YYYY-MM-DD"))
  }

  @Test(arguments: TestBackend.allCases)
  func descriptionsAndLinesAsLongAsRealPagesAreTaken(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let description = String(repeating: "A long story about this soup. ", count: 300)  // 9,000 characters
    let line = "2 cups ripe tomatoes, " + String(repeating: "peeled and ", count: 70) + "chopped"  // 798 characters
    guard
      case .created(let recipe) = try library.recipes.create(
        RecipeDraft(name: "Soup", ingredients: [line], description: description))
    else {
      Issue.record("not created")
      return
    }
    #expect(recipe.recipeDescription?.count == description.count - 1)
    #expect(recipe.recipeIngredient == [line])
    let tooLong = String(repeating: "x", count: RecipeLimits.description + 1)
    let error = try expectUnchanged(library) { _ = try library.recipes.create(RecipeDraft(name: "Soup 2", description: tooLong)) }
    #expect(BoundsTests.reason(error) == "longer than 10000 characters")
  }

  @Test func theLineCheckSaysWhatCreatingWouldSay() {
    #expect(RecipeRepository.problem(inIngredientLine: "2 cups flour") == nil)
    #expect(RecipeRepository.problem(inIngredientLine: "   ") == "the line is empty")
    #expect(RecipeRepository.problem(inIngredientLine: "2 cups") == "no ingredient name after the quantity and unit")
    #expect(
      RecipeRepository.problem(inIngredientLine: "1 " + String(repeating: "tomato", count: 40))
        == "the ingredient name is longer than 200 characters")
    #expect(RecipeRepository.problem(inIngredientLine: "200000 g flour") == "the amount must be a number above 0 and at most 100,000")
    #expect(
      RecipeRepository.problem(inIngredientLine: String(repeating: "a", count: RecipeLimits.ingredientLine + 1))
        == "longer than \(RecipeLimits.ingredientLine) characters")
  }
}
