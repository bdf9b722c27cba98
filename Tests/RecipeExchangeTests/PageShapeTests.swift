import Foundation
import RecipeExchange
import Testing

/// Each shape of page or file sites publish gives its recipe with ingredients, steps,
/// times and yield right.
@Suite struct PageShapeTests {
  @Test func yoastGraphPageGivesItsRecipeWithSectionsAndTidiedText() throws {
    let reading = try Fixtures.read("yoast-graph.html")
    #expect(reading.recipes.map(\.name) == ["Weeknight Shakshuka"], "the commented-out block is not read")
    #expect(reading.warnings.contains { $0.contains("JSON-LD block 2 is not valid JSON") })
    let recipe = try #require(reading.recipes.first)
    #expect(recipe.description == "Eggs poached in a spiced tomato & pepper sauce – ready in 40 minutes.")
    #expect(
      recipe.ingredients == [
        "2 tbsp olive oil", "1 red pepper, diced", "3 cloves garlic, sliced", "1 tsp ground cumin",
        "2 x 400 g cans chopped tomatoes", "6 eggs", "½ cup crumbled feta", "2 tbsp olive oil",
      ])
    #expect(recipe.ingredientGroups == Array(repeating: "For the sauce", count: 5) + Array(repeating: "To finish", count: 3))
    #expect(!recipe.warnings.contains { $0.contains("heading") })
    #expect(
      recipe.sections == [
        .init(
          name: "Make the sauce",
          steps: [
            "Warm the oil and soften the pepper for 5 minutes.", "Add the garlic and cumin, then the tomatoes; simmer 15 minutes.",
          ]),
        .init(
          name: "Cook the eggs",
          steps: ["Make 6 wells and crack in the eggs.", "Cover and cook 8–10 minutes.", "Scatter with feta & serve."]),
      ])
    #expect(recipe.yield == "4 servings")
    #expect([recipe.prepTime, recipe.cookTime, recipe.totalTime] == ["PT10M", "PT30M", "PT40M"])
    #expect(recipe.category == "Breakfast, Brunch")
    #expect(recipe.cuisine == "Middle Eastern")
    #expect(recipe.keywords == ["eggs", "tomato", "one pan"])
    #expect(recipe.author == "Ada Baker, Ben Cook")
    #expect(recipe.image == "https://small-kitchen.example/wp-content/uploads/shakshuka.jpg")
    #expect(recipe.url == "https://small-kitchen.example/recipes/weeknight-shakshuka/")
    #expect(recipe.datePublished == "2024-03-05")
  }

  @Test func topLevelArrayWithTypeArrayInCDATAGivesItsRecipe() throws {
    let recipe = try Fixtures.recipe("news-article-array.html")
    #expect(recipe.name == "Grandma's Brown Bread")
    #expect(recipe.ingredients.count == 5)
    #expect(
      recipe.sections == [
        .init(steps: [
          "Mix the flour, yeast and salt.", "Stir in the water and treacle to a wet dough.",
          "Rise for 40 minutes, then bake in two tins for 45 minutes.",
        ])
      ])
    #expect(recipe.yield == "2")
    #expect(recipe.prepTime == "PT25M")
    #expect(recipe.cookTime == nil)
    #expect(recipe.warnings.contains("cook time 'PT 35 minutes' is not a duration; left out"))
    #expect(recipe.totalTime == "PT1H30M")
    #expect(recipe.author == "Edith Crumb")
    #expect(recipe.keywords == ["bread", "baking"])
    #expect(recipe.image == "https://dailycrumb.example/img/bread-1x1.jpg")
    #expect(recipe.url == "https://dailycrumb.example/food/brown-bread")
  }

  @Test func mainEntityWithOddKeyCasingGivesItsRecipe() throws {
    let recipe = try Fixtures.recipe("main-entity.html")
    #expect(recipe.name == "Red Lentil Dal")
    #expect(recipe.ingredients.first == "1 cup red lentils, rinsed")
    #expect(recipe.ingredients.count == 7)
    #expect(
      recipe.sections.flatMap(\.steps) == [
        "Simmer the lentils with the water and turmeric until soft, about 20 minutes.",
        "Fry the cumin seeds and onion in the ghee until golden.",
        "Stir the onion into the lentils, season with the salt and serve.",
      ])
    #expect(recipe.yield == "Serves 4")
    #expect(recipe.cookTime == nil)
    #expect(recipe.warnings.contains("cook time '-PT5M' is not a duration; left out"))
    #expect(recipe.prepTime == "PT10M")
    #expect(recipe.datePublished == nil)
    #expect(recipe.warnings.contains { $0.hasPrefix("date published 'last Tuesday'") })
    #expect(recipe.url == "https://pantry-notes.example/dal", "a relative url is resolved against og:url")
  }

  @Test func itemListGivesEachOfItsRecipes() throws {
    let reading = try Fixtures.read("item-list.jsonld")
    #expect(reading.recipes.map(\.name) == ["Cucumber Salad", "Tomato Salad"])
    #expect(reading.recipes.map(\.yield) == ["2 servings", "2"])
    #expect(reading.recipes[1].sections.flatMap(\.steps) == ["Layer the tomatoes and shallot.", "Dress with the oil and salt."])
  }

  @Test func plainObjectKeepsRepeatedLinesAndReadsZeroAsUnknown() throws {
    let recipe = try Fixtures.recipe("plain-recipe.json")
    #expect(recipe.name == "Overnight Oats", "a no-break space is a space")
    #expect(recipe.ingredients == ["1 cup rolled oats", "1 cup milk", "1 tbsp honey", "1 tbsp honey", "pinch of salt"])
    #expect(recipe.cookTime == nil)
    #expect(recipe.warnings.isEmpty, "PT0S says unknown: \(recipe.warnings)")
    #expect(recipe.yield == "Makes 2 jars")
    #expect(recipe.category == "Breakfast, Make ahead")
    #expect(recipe.author == "Ada Baker")
    #expect(recipe.datePublished == "2023-11-02")
    #expect(recipe.url == nil)
  }

  /// A HowToStep with a title of its own over several paragraphs keeps the title as a
  /// section heading; a step whose name only repeats its text, or with one paragraph,
  /// stays a plain step.
  @Test func aTitledStepOfSeveralParagraphsBecomesASection() throws {
    let json = Data(
      #"""
      {"@type": "Recipe", "name": "Focaccia", "recipeInstructions": [
        {"@type": "HowToStep", "name": "Make the dough", "text": "<p>Mix the flour and water.</p><p>Rest it for an hour.</p>"},
        {"@type": "HowToStep", "name": "Shape it", "text": "Press into the tin."},
        {"@type": "HowToStep", "name": "Bake for 25 minutes.", "text": "Bake for 25 minutes.\nServe warm."}]}
      """#.utf8)
    let recipe = try #require(try RecipeReader().read(json).recipes.first)
    #expect(recipe.sections.map(\.name) == ["Make the dough", nil])
    #expect(
      recipe.sections.map(\.steps) == [
        ["Mix the flour and water.", "Rest it for an hour."], ["Press into the tin.", "Bake for 25 minutes.", "Serve warm."],
      ])
  }

  /// The non-ISO dates and broken ISO durations the recipe corpus holds (Docs/IMPORT.md):
  /// read where the reading is certain, left out with a warning where it is not.
  @Test(
    arguments: [
      ("2021/01/19", "2021-01-19"), ("Jun 16, 2023", "2023-06-16"), ("June 16, 2020 at 4:41pm", "2020-06-16"),
      ("May 1, 2025, 10:06 a.m.", "2025-05-01"), ("Sat, 12/19/2020 - 08:25", "2020-12-19"), ("7 January 2020", "2020-01-07"),
      ("21/04/2021 16:51:59", "2021-04-21"), ("Sept. 3, 2019", "2019-09-03"),
      ("03/04/2021", nil), ("24 augustus 2022", nil), ("Feb 30, 2023", nil), ("June 2023", nil),
    ] as [(String, String?)])
  func aDateInAnotherFormIsReadWhenItIsCertain(written: String, day: String?) throws {
    let recipe = try Self.stew(field: "datePublished", written)
    #expect(recipe.datePublished == day)
    #expect(recipe.warnings.contains { $0.hasPrefix("date published") } == (day == nil), "\(recipe.warnings)")
  }

  @Test(
    arguments: [
      ("PTH25MS", "PT25M"), ("PT1HMS", "PT1H"), ("PT0D4H45M", "PT4H45M"), ("P2H30M", "PT2H30M"), ("P30M", "PT30M"),
      ("PTHM", nil), ("PTundefinedM", nil), ("PT-475323H41M52S", nil), ("PTNaNM", nil), ("P", nil), ("PT1.5H", nil),
      // Fields repeated past what an Int holds: too long, not a crash.
      ("P" + String(repeating: "999999999D", count: 120_000), nil),
    ] as [(String, String?)])
  func aBrokenISODurationIsReadWhenItsFieldsAreClear(written: String, iso: String?) throws {
    let recipe = try Self.stew(field: "cookTime", written)
    #expect(recipe.cookTime == iso)
    #expect(recipe.warnings.contains { $0.hasPrefix("cook time") } == (iso == nil), "\(recipe.warnings)")
  }

  /// The recipe of a JSON-LD document with one field besides its name.
  private static func stew(field: String, _ value: String) throws -> ImportedRecipe {
    let json = Data(#"{"@type": "Recipe", "name": "Stew", "\#(field)": "\#(value)"}"#.utf8)
    return try #require(try RecipeReader().read(json).recipes.first)
  }
}
