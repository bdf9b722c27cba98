import Foundation
import Normalization
import PersistenceSQLite
import RecipeExchange
import Repositories

/// Importing saved recipe pages: `RecipeReader` over pages shaped like a WordPress
/// recipe post (a Yoast `@graph` block among ~40 KB of markup, 12 ingredient lines, two
/// step sections), then the recipes created through the repositories.
///
/// Baseline: what a hand-written reader does at the least — find the JSON-LD block by
/// string search and parse it with JSONSerialization, nothing tidied or mapped. Figures:
/// pages per second read, pages per second imported into a SQLite store, and the share
/// of the import spent parsing ingredient lines (`IngredientLine.parse`).
enum RecipeImportScenario {
  static let ingredientLines = [
    "2 tbsp olive oil", "1 red pepper, diced", "3 cloves garlic, sliced", "1 tsp ground cumin",
    "2 x 400&nbsp;g cans chopped tomatoes", "6 eggs", "&frac12; cup crumbled feta", "1 onion, finely chopped",
    "1 tsp smoked paprika", "salt and freshly ground black pepper to taste", "2 tbsp chopped parsley, to serve",
    "1 (14 oz) can chickpeas, drained",
  ]

  /// Page `number`: its own title, so every page is a new recipe.
  static func page(_ number: Int) -> String {
    let ingredients = ingredientLines.map { "\"\($0)\"" }.joined(separator: ",")
    let steps = (1...3).map { #"{"@type":"HowToStep","text":"Step \#($0): stir &amp; simmer for 5&nbsp;minutes."}"# }
      .joined(separator: ",")
    let filler = String(
      repeating: #"<div class="entry"><p>Some <a href="/x">story</a> text about the dish &amp; its history.</p></div>"#, count: 400)
    return """
      <!DOCTYPE html><html><head><meta charset="utf-8"><title>Recipe \(number)</title>
      <link rel="canonical" href="https://kitchen.example/recipes/\(number)/">
      <script type="text/javascript">var config = {"a": 1};</script>
      <script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[
      {"@type":"WebPage","@id":"https://kitchen.example/recipes/\(number)/","name":"Recipe \(number)"},
      {"@type":"Recipe","name":"Shakshuka number \(number)","description":"Eggs in a spiced tomato &amp; pepper sauce.",
      "author":{"@type":"Person","name":"Ada Baker"},"recipeYield":["4","4 servings"],"prepTime":"PT0H10M",
      "cookTime":"P0DT0H30M","recipeCuisine":"Middle Eastern","keywords":"eggs, tomato","datePublished":"2024-03-05",
      "recipeIngredient":[\(ingredients)],
      "recipeInstructions":[{"@type":"HowToSection","name":"Sauce","itemListElement":[\(steps)]},
      {"@type":"HowToSection","name":"Eggs","itemListElement":[\(steps)]}]}]}</script>
      </head><body>\(filler)</body></html>
      """
  }

  /// The least a hand-written reader does: find the block, parse its JSON.
  static func baselineRead(_ data: Data) throws -> Int {
    let text = String(decoding: data, as: UTF8.self)
    guard let marker = text.range(of: "application/ld+json"), let open = text[marker.upperBound...].firstIndex(of: ">"),
      let close = text.range(of: "</script>", range: open..<text.endIndex)
    else { return 0 }
    let json = try JSONSerialization.jsonObject(with: Data(text[text.index(after: open)..<close.lowerBound].utf8))
    return (json as? [String: Any])?.count ?? 0
  }

  static let scenario = Scenario(
    id: "recipeimport", title: "recipe import from saved pages, per page (read; then created in a store)",
    target: "read ≤ 3× baseline; ≥ 200 pages/s imported", parameters: ["recipeimport.pages"]
  ) { context in
    let count = max(context.sizes["recipeimport.pages"], 10)
    let pages = (0..<count).map { Data(page($0).utf8) }
    let reader = RecipeReader()
    var sink = 0
    for data in pages.prefix(10) { sink &+= try reader.read(data).recipes.count }  // warm up
    var foragerSamples: [Double] = [], baselineSamples: [Double] = [], readings: [ImportedRecipe] = []
    for round in 0..<max(context.rounds, 1) {
      for data in pages {
        var reading: RecipeReader.Reading?
        foragerSamples.append(try time { reading = try reader.read(data) })
        baselineSamples.append(try time { sink &+= try baselineRead(data) })
        if round == 0, let recipe = reading?.recipes.first { readings.append(recipe) }
      }
    }
    // The whole import: read + create through the repositories, one transaction a page.
    let library = Library(store: try SQLiteStore(path: context.path("import.sqlite")))
    let imported = try time {
      for data in pages {
        guard let recipe = try reader.read(data).recipes.first else { continue }
        _ = try library.recipes.create(
          RecipeDraft(
            name: recipe.name, ingredients: recipe.ingredients, instructions: recipe.instructions,
            description: recipe.description, cuisine: recipe.cuisine, yield: recipe.yield, prepTime: recipe.prepTime,
            cookTime: recipe.cookTime, keywords: recipe.keywords, author: recipe.author, datePublished: recipe.datePublished,
            url: recipe.url))
      }
    }
    // The ingredient-line parsing inside it: every imported line parsed once more.
    let parsing = time {
      for recipe in readings { for line in recipe.ingredients { sink &+= IngredientLine.parse(line).name.utf8.count } }
    }
    var result = ScenarioResult(context)
    result.compare(foragerSamples, baselineSamples)
    let readMedian = result.forager?.median ?? .infinity
    result.figures["pages read/s"] = 1 / readMedian
    result.figures["pages imported (read + create)/s"] = Double(count) / imported
    result.figures["ingredient-line parse share of import %"] = 100 * parsing / imported
    result.figures["page KB"] = Double(pages[0].count) / 1024
    result.figures["sink count"] = Double(sink % 1_000_000)
    result.judge((result.ratio ?? .infinity) <= 3 && Double(count) / imported >= 200)
    result.note = "\(count) pages of \(pages[0].count / 1024) KB, \(ingredientLines.count) lines each; per page"
    return result
  }
}
