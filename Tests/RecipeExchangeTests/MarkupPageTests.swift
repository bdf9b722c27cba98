import Foundation
import RecipeExchange
import Testing

/// Pages that write their recipe as microdata or RDFa Lite instead of JSON-LD give it
/// with the same fields, read by the same rules.
@Suite struct MarkupPageTests {
  static func read(_ page: String) throws -> RecipeReader.Reading { try RecipeReader().read(Data(page.utf8)) }

  @Test func anAllrecipesStyleMicrodataPageGivesItsRecipe() throws {
    let reading = try Fixtures.read("microdata-allrecipes.html")
    #expect(reading.recipes.map(\.name) == ["Chewy Oatmeal Cookies"], "the commented-out item is not read")
    let recipe = try #require(reading.recipes.first)
    #expect(recipe.description == "“Soft & chewy, with a crisp edge — the cookie my kids ask for.”")
    #expect(
      recipe.ingredients == [
        "1 cup butter, softened", "1 cup white sugar", "1 cup packed brown sugar", "2 eggs", "1 tsp vanilla extract",
        "2 cups all-purpose flour", "1 tsp baking soda", "1 tsp salt", "3 cups quick-cooking oats",
      ], "the ingredients come through itemref")
    #expect(
      recipe.instructions == [
        "Preheat oven to 350 degrees F (175 degrees C).",
        "Cream the butter and both sugars until smooth; beat in the eggs one at a time, then the vanilla.",
        "Stir in the flour, soda, salt and oats. Drop by rounded spoonfuls onto ungreased sheets.",
        "Bake 10 to 12 minutes; cool 2 minutes on the sheet.",
      ])
    #expect([recipe.prepTime, recipe.cookTime, recipe.totalTime] == ["PT20M", "PT12M", "PT32M"], "time's datetime")
    #expect(recipe.yield == "36", "meta's content")
    #expect(recipe.author == "Dora Baker", "the Person item's name, not its link")
    #expect(recipe.image == "https://www.allrecipes.example/userphotos/560x315/cookies.jpg", "img's src, made absolute")
    #expect(recipe.url == "https://www.allrecipes.example/recipe/10813/chewy-oatmeal-cookies/")
    #expect(recipe.datePublished == "2019-05-04", "one of two names in one itemprop")
    #expect(recipe.category == "Desserts")
    #expect(recipe.keywords == ["oatmeal", "cookies", "baking"])
    #expect(recipe.warnings.isEmpty, "\(recipe.warnings)")
  }

  @Test func aWordPressPluginMicrodataPageGivesSectionsAndOldFieldNames() throws {
    let reading = try Fixtures.read("microdata-wordpress-plugin.html")
    #expect(
      reading.recipes.map(\.name) == ["Cinnamon Buns"], "the Yoast graph without a Recipe gives none; the style's comment is not read")
    let recipe = try #require(reading.recipes.first)
    #expect(recipe.description == "Soft, cardamom-scented buns with a brown-sugar swirl.")
    #expect(
      recipe.ingredients == [
        "500 g strong white flour", "250 ml milk, warmed", "7 g fast-action yeast", "1 tsp ground cardamom",
        "100 g butter & brown sugar, creamed", "2 tbsp cinnamon",
      ], "itemprop=ingredients, each <li> closed by the next")
    #expect(
      recipe.sections == [
        .init(
          name: "Make the dough",
          steps: ["Mix the flour, yeast and cardamom; add the milk.", "Knead 10 minutes and leave to rise for an hour."]
        ),
        .init(
          name: "Shape and bake",
          steps: ["Roll out, spread with the filling, roll up and cut into 12.", "Rise 30 minutes, then bake at 200°C for 20 minutes."]),
      ])
    #expect([recipe.prepTime, recipe.cookTime, recipe.totalTime] == ["PT45M", "PT20M", nil], "a span's content")
    #expect(recipe.yield == "12 buns")
    #expect(recipe.cuisine == "Swedish, Nordic")
    #expect(recipe.author == "Hanna Lind")
    #expect(recipe.datePublished == "2017-11-28")
    #expect(recipe.image == "https://crumbtin.example/wp-content/uploads/2017/11/buns.jpg")
    #expect(recipe.url == "https://crumbtin.example/2017/11/cinnamon-buns/")
  }

  @Test func anRDFaLitePageGivesItsRecipe() throws {
    let reading = try Fixtures.read("rdfa-lite.html")
    let recipe = try #require(reading.recipes.first)
    #expect(reading.recipes.count == 1)
    #expect(recipe.name == "Green Pea Soup", "not the og:title, nor the rating's name")
    #expect(recipe.description == "A bright soup from frozen peas – on the table in 25 minutes.")
    #expect(recipe.author == "Iris Moss")
    #expect(recipe.datePublished == "2022-04-09")
    #expect(recipe.image == "https://fieldandfork.example/soups/images/pea-soup.jpg")
    #expect([recipe.prepTime, recipe.cookTime, recipe.totalTime] == ["PT10M", "PT15M", nil])
    #expect(recipe.yield == "4")
    #expect(recipe.category == "Soup")
    #expect(recipe.keywords == ["peas", "mint", "quick"])
    #expect(
      recipe.ingredients == [
        "1 tbsp butter", "1 onion, chopped", "500 g frozen peas", "750 ml vegetable stock", "a handful of mint leaves",
      ])
    #expect(
      recipe.instructions == [
        "Soften the onion in the butter for 5 minutes.", "Add the peas and stock; simmer 10 minutes.", "Blend with the mint and season.",
      ])
  }

  @Test func rdfaTermsArePrefixedOrFullAddressesToo() throws {
    let page = """
      <html><body prefix="s: https://schema.org/ og: http://ogp.me/ns#">
      <div typeof="s:Recipe">
        <h1 property="s:name og:title">Plum Crumble</h1>
        <span property="schema:recipeYield">6</span>
        <span property="http://schema.org/recipeIngredient">500 g plums</span>
        <span property="s:recipeIngredient">100 g oats</span>
        <span property="og:recipeIngredient">not schema.org</span>
        <span property="recipeIngredient">no vocab: not schema.org</span>
      </div></body></html>
      """
    let recipe = try #require(try Self.read(page).recipes.first)
    #expect(recipe.name == "Plum Crumble")
    #expect(recipe.yield == "6")
    #expect(recipe.ingredients == ["500 g plums", "100 g oats"])
  }

  @Test func jsonLDComesFirstWhenAPageHasBoth() throws {
    let page = """
      <html><head><script type="application/ld+json">{"@type": "Recipe", "name": "From JSON-LD", "recipeIngredient": ["1 egg"]}</script></head>
      <body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">From microdata</h1></div>
      <div vocab="https://schema.org/" typeof="Recipe"><h1 property="name">From RDFa</h1></div></body></html>
      """
    #expect(try Self.read(page).recipes.map(\.name) == ["From JSON-LD"])
    let withoutJSONLD = page.replacingOccurrences(of: "\"Recipe\", \"name\"", with: "\"WebPage\", \"name\"")
    #expect(try Self.read(withoutJSONLD).recipes.map(\.name) == ["From microdata"], "microdata before RDFa")
  }

  @Test func aBrokenJSONLDBlockBesideMicrodataIsAWarning() throws {
    let page = """
      <html><script type="application/ld+json">{"@type": "Recipe", </script>
      <div itemscope itemtype="http://schema.org/Recipe"><span itemprop="name">Toast</span></div></html>
      """
    let reading = try Self.read(page)
    #expect(reading.recipes.map(\.name) == ["Toast"])
    #expect(reading.warnings.contains { $0.hasPrefix("JSON-LD block 1 is not valid JSON") })
  }

  @Test func microdataValuesFollowTheElement() throws {
    let page = """
      <html><body><div itemscope itemtype="http://schema.org/Recipe" itemref="more">
        <span itemprop="name">Lemon <b>Curd</b></span>
        <a itemprop="url" href="/lemon-curd">a link's value is its href</a>
        <data itemprop="recipeYield" value="2 jars">two</data>
        <time itemprop="cookTime">PT10M</time>
        <div itemprop="recipeInstructions"><p>Whisk everything.<p>Stir over a low heat.<br>Pot up.</div>
      </div>
      <p id="more"><span itemprop="recipeIngredient">3 lemons</span></p>
      <link rel="canonical" href="https://curd.example/recipes/">
      </body></html>
      """
    let recipe = try #require(try Self.read(page).recipes.first)
    #expect(recipe.name == "Lemon Curd")
    #expect(recipe.url == "https://curd.example/lemon-curd")
    #expect(recipe.yield == "2 jars")
    #expect(recipe.cookTime == "PT10M", "a time without datetime gives its text")
    #expect(recipe.instructions == ["Whisk everything.", "Stir over a low heat.", "Pot up."])
    #expect(recipe.ingredients == ["3 lemons"])
  }

  @Test func aPageWithNoRecipeInAnyFormSaysWhatItLookedFor() {
    let page = #"<html><body><div itemscope itemtype="http://schema.org/Person"><span itemprop="name">Ada</span></div></body></html>"#
    #expect(throws: RecipeReadError.noRecipe(blocks: 0)) { try Self.read(page) }
    #expect(
      RecipeReadError.noRecipe(blocks: 0).description
        == "no schema.org Recipe found: the page has no application/ld+json block, and no Recipe in microdata (itemscope) or RDFa (typeof)")
  }
}
