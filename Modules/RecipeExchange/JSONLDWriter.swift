public import Foundation
public import Model

/// Writes recipes as schema.org Recipe JSON-LD that ``RecipeReader`` (and any site or
/// app that reads schema.org) reads back: name, description, ingredient lines, steps
/// (sections as HowToSection), yield, times, cuisine, category, keywords, author, date
/// published and source address. Forager's own fields (tags, notes, book, favourite,
/// usage) have no schema.org Recipe field and are not written (Docs/IMPORT.md).
///
/// ```swift
/// let data = try JSONLDWriter.data([recipe])  // one object, or an array for several
/// ```
public enum JSONLDWriter {
  /// One recipe as a JSON-LD object; `ingredientGroups` (by line, as
  /// `RecipeIngredient.group`) become heading lines "NAME:" among the ingredient lines,
  /// as pages write them.
  public static func object(_ recipe: Recipe, ingredientGroups: [String?] = []) -> [String: Any] {
    var object: [String: Any] = [
      "@context": "https://schema.org", "@type": "Recipe", "name": recipe.displayName,
      "recipeIngredient": IngredientHeadings.lines(recipe.recipeIngredient, groups: ingredientGroups),
    ]
    let optional: [(String, String?)] = [
      ("description", recipe.recipeDescription), ("recipeYield", recipe.recipeYield), ("prepTime", recipe.prepTime),
      ("cookTime", recipe.cookTime), ("totalTime", recipe.totalTime), ("recipeCuisine", recipe.recipeCuisine),
      ("recipeCategory", recipe.recipeCategory), ("datePublished", recipe.datePublished), ("url", recipe.sourceURL),
    ]
    for (key, value) in optional { if let value { object[key] = value } }
    if let author = recipe.author { object["author"] = ["@type": "Person", "name": author] }
    if !recipe.keywords.isEmpty { object["keywords"] = recipe.keywords }
    if !recipe.recipeInstructions.isEmpty { object["recipeInstructions"] = instructions(recipe.recipeInstructions) }
    return object
  }

  /// HowToStep objects, grouped in HowToSection objects where the steps have headings.
  static func instructions(_ steps: [String]) -> [[String: Any]] {
    StepHeadings.sections(of: steps).flatMap { section -> [[String: Any]] in
      let items: [[String: Any]] = section.steps.map { ["@type": "HowToStep", "text": $0] }
      guard let name = section.name else { return items }
      return [["@type": "HowToSection", "name": name, "itemListElement": items]]
    }
  }

  /// The recipes as UTF-8 JSON-LD, pretty-printed with sorted keys: one object for one
  /// recipe, an array for several; `ingredientGroups` by recipe id, as in
  /// ``object(_:ingredientGroups:)``.
  public static func data(_ recipes: [Recipe], ingredientGroups: [UUID: [String?]] = [:]) throws -> Data {
    let objects = recipes.map { object($0, ingredientGroups: ingredientGroups[$0.id] ?? []) }
    let root: Any = objects.count == 1 ? objects[0] : objects
    return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
  }
}
