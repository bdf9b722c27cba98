import Foundation
import Model
import RecipeExchange
import Testing

/// What JSONLDWriter writes reads back the same.
@Suite struct ExportTests {
  static let recipe = Recipe(
    meta: RecordMetadata(
      id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, createdAt: Date(timeIntervalSince1970: 0), ownerID: "me"),
    displayName: "Weeknight Shakshuka", titleKey: "weeknight shakshuka", recipeDescription: "Eggs in sauce.",
    recipeIngredient: ["2 tbsp olive oil", "6 eggs"], recipeInstructions: ["Warm the oil.", "## Eggs", "Crack in the eggs.", "Cover."],
    recipeCategory: "Breakfast", recipeCuisine: "Middle Eastern", recipeYield: "4 servings", prepTime: "PT10M", cookTime: "PT30M",
    totalTime: "PT40M", keywords: ["eggs", "one pan"], author: "Ada Baker", datePublished: "2024-03-05",
    sourceURL: "https://small-kitchen.example/shakshuka"
  )

  @Test func exportWritesSchemaOrgRecipeWithSections() throws {
    let object = JSONLDWriter.object(Self.recipe)
    #expect(object["@type"] as? String == "Recipe")
    #expect(object["@context"] as? String == "https://schema.org")
    let steps = try #require(object["recipeInstructions"] as? [[String: Any]])
    #expect(steps.map { $0["@type"] as? String } == ["HowToStep", "HowToSection"])
    #expect(steps[1]["name"] as? String == "Eggs")
    #expect((steps[1]["itemListElement"] as? [[String: Any]])?.count == 2)
  }

  @Test func anExportReadsBackTheSame() throws {
    let read = try #require(RecipeReader().read(JSONLDWriter.data([Self.recipe])).recipes.first)
    #expect(read.name == Self.recipe.displayName)
    #expect(read.description == Self.recipe.recipeDescription)
    #expect(read.ingredients == Self.recipe.recipeIngredient)
    #expect(read.instructions == Self.recipe.recipeInstructions)
    #expect(read.yield == Self.recipe.recipeYield)
    #expect([read.prepTime, read.cookTime, read.totalTime] == [Self.recipe.prepTime, Self.recipe.cookTime, Self.recipe.totalTime])
    #expect(read.cuisine == Self.recipe.recipeCuisine)
    #expect(read.category == Self.recipe.recipeCategory)
    #expect(read.keywords == Self.recipe.keywords)
    #expect(read.author == Self.recipe.author)
    #expect(read.datePublished == Self.recipe.datePublished)
    #expect(read.url == Self.recipe.sourceURL)
    #expect(read.warnings.isEmpty)
  }

  @Test func severalRecipesExportAsAnArrayAndReadBackInOrder() throws {
    var second = Self.recipe
    second.displayName = "Second"
    let data = try JSONLDWriter.data([Self.recipe, second])
    #expect(try JSONSerialization.jsonObject(with: data) is [Any])
    #expect(try RecipeReader().read(data).recipes.map(\.name) == ["Weeknight Shakshuka", "Second"])
  }
}
