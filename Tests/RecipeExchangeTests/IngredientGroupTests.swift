import Foundation
import Model
import Testing

@testable import RecipeExchange

/// Ingredient groups ("For the sauce:") are kept by every reader and written by every
/// writer, so a round trip keeps them.
@Suite struct IngredientGroupTests {
  static func page(_ body: String) -> Data { Data("<html><body>\(body)</body></html>".utf8) }

  @Test func jsonLDSectionObjectsGiveTheirGroups() throws {
    let json = """
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Dumplings",
      "recipeIngredient":["1 tsp salt",{"@type":"HowToSection","name":"Dough","itemListElement":["2 cups flour","1 egg"]},
      {"@type":"HowToSection","name":"Filling","itemListElement":[{"@type":"HowToStep","text":"200 g spinach"}]}]}</script>
      """
    let recipe = try #require(try RecipeReader().read(Self.page(json)).recipes.first)
    #expect(recipe.ingredients == ["1 tsp salt", "2 cups flour", "1 egg", "200 g spinach"])
    #expect(recipe.ingredientGroups == [nil, "Dough", "Dough", "Filling"])
  }

  @Test func headingLinesInJSONLDAndMicrodataStartGroups() throws {
    let json = """
      <script type="application/ld+json">{"@type":"Recipe","name":"Tacos",
      "recipeIngredient":["8 tortillas","FILLING","500 g beef","Dipping Sauce:","3 tbsp soy sauce"]}</script>
      """
    let fromJSON = try #require(try RecipeReader().read(Self.page(json)).recipes.first)
    #expect(fromJSON.ingredients == ["8 tortillas", "500 g beef", "3 tbsp soy sauce"])
    #expect(fromJSON.ingredientGroups == [nil, "FILLING", "Dipping Sauce"])
    #expect(fromJSON.warnings.isEmpty, "\(fromJSON.warnings)")
    let microdata = """
      <div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Tacos</h1><ul>
      <li itemprop="recipeIngredient">8 tortillas</li><li itemprop="recipeIngredient">For the filling:</li>
      <li itemprop="recipeIngredient">500 g beef</li></ul></div>
      """
    let fromMicrodata = try #require(try RecipeReader().read(Self.page(microdata)).recipes.first)
    #expect(fromMicrodata.ingredients == ["8 tortillas", "500 g beef"])
    #expect(fromMicrodata.ingredientGroups == [nil, "For the filling"])
  }

  @Test func aRecipeWithoutHeadingsHasNoGroups() throws {
    let json = #"<script type="application/ld+json">{"@type":"Recipe","name":"Toast","recipeIngredient":["2 slices bread"]}</script>"#
    #expect(try RecipeReader().read(Self.page(json)).recipes.first?.ingredientGroups == [])
  }

  @Test func paprikaHeadingLinesAreGroupsNotIngredients() throws {
    var object = PaprikaSupport.shakshuka
    object["ingredients"] = "2 tbsp olive oil\nFor the dressing:\n3 tbsp lemon juice\nSAUCE\n1 cup yogurt"
    let archive = try PaprikaArchive.read(PaprikaSupport.archive([object]))
    let recipe = try #require(PaprikaArchiveTests.recipes(archive).first)
    #expect(recipe.ingredients == ["2 tbsp olive oil", "3 tbsp lemon juice", "1 cup yogurt"])
    #expect(recipe.ingredientGroups == [nil, "For the dressing", "SAUCE"])
  }

  static let groups: [String?] = [nil, "For the sauce", "For the sauce", "To finish"]
  static var recipe: Recipe {
    var recipe = ExportTests.recipe
    recipe.recipeIngredient = ["1 tsp salt", "2 tbsp olive oil", "400 g tomatoes", "6 eggs"]
    return recipe
  }

  @Test func jsonLDExportWritesHeadingLinesThatReadBackAsGroups() throws {
    let object = JSONLDWriter.object(Self.recipe, ingredientGroups: Self.groups)
    #expect(
      object["recipeIngredient"] as? [String] == [
        "1 tsp salt", "For the sauce:", "2 tbsp olive oil", "400 g tomatoes", "To finish:", "6 eggs",
      ])
    let data = try JSONLDWriter.data([Self.recipe], ingredientGroups: [Self.recipe.id: Self.groups])
    let read = try #require(RecipeReader().read(data).recipes.first)
    #expect(read.ingredients == Self.recipe.recipeIngredient)
    #expect(read.ingredientGroups == Self.groups)
  }

  @Test func paprikaExportWritesHeadingLinesThatReadBackAsGroups() throws {
    let data = try PaprikaWriter.archive([.init(Self.recipe, ingredientGroups: Self.groups)])
    let read = try #require(PaprikaArchiveTests.recipes(try PaprikaArchive.read(data)).first)
    #expect(read.ingredients == Self.recipe.recipeIngredient)
    #expect(read.ingredientGroups == Self.groups)
  }
}
