import Foundation
public import Model
import Normalization
import Persistence

/// What the household has on hand: a synced set of ingredients (the templates marked
/// `IngredientTemplate/onHand`), each with an amount when the household gave one
/// (`IngredientTemplate/onHandAmount`). `list add-recipe` skips those without an amount
/// along with staples, a list shows what its recipes need beyond an amount, and
/// ``suggestions()`` counts them as available.
///
/// ```swift
/// _ = try library.pantry.add("rice")
/// try library.pantry.suggestions().first?.missing   // ["Eggs"]
/// ```
public struct PantryRepository {
  let context: RepositoryContext

  /// Marks an ingredient as on hand ("have some"), creating its template when missing.
  /// An amount it already has stays.
  /// - Throws: ``RepositoryError`` for a bad name.
  public func add(_ name: String) throws -> IngredientTemplate {
    try context.write { writer in
      var template = try IngredientTemplateRepository(context: context.bound(to: writer)).getOrCreate(name, in: writer)
      guard !template.onHand else { return template }
      template.onHand = true
      try writer.save(template, at: context.now())
      return template
    }
  }

  /// Takes an ingredient out of the pantry, with its amount.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown ingredient,
  ///   ``RepositoryError/invalidValue(field:value:reason:)`` for one not in the pantry.
  public func remove(_ name: String) throws -> IngredientTemplate {
    try context.write { writer in
      var template = try IngredientTemplateRepository(context: context.bound(to: writer)).operations.require(name, in: writer)
      guard template.onHand else {
        throw RepositoryError.invalidValue(field: "pantry", value: name, reason: "'\(template.displayName)' is not in the pantry")
      }
      template.onHand = false
      template.onHandAmount = nil
      try writer.save(template, at: context.now())
      return template
    }
  }

  /// The ingredients on hand, by name (any case).
  public func all() throws -> [IngredientTemplate] {
    try context.read { reader in
      try reader.entities(IngredientTemplate.self, RecordQuery(.ingredientTemplate, filters: [.equals("onHand", .bool(true))]))
        .sorted { ($0.displayName.lowercased(), $0.id.uuidString) < ($1.displayName.lowercased(), $1.id.uuidString) }
    }
  }

  /// A recipe and what it still needs.
  public struct Suggestion: Sendable, Hashable {
    /// The recipe.
    public let recipe: Recipe
    /// Its ingredients neither on hand nor staples, by name, in recipe order.
    public let missing: [String]
    /// How many different ingredients it uses.
    public let ingredientCount: Int
  }

  /// Every recipe ranked by how few ingredients it is missing, given the pantry and the
  /// staples; then the most cooked first (`recipe cooked`), then by name.
  public func suggestions() throws -> [Suggestion] {
    try context.read { reader in
      let recipes = try reader.entities(Recipe.self, RecordQuery(.recipe, sort: [SortKey("displayName")]))
      let lines = try reader.entities(RecipeIngredient.self, RecordQuery(.recipeIngredient, sort: [SortKey("sortOrder")]))
      let templates = try reader.entities(IngredientTemplate.self, RecordQuery(.ingredientTemplate))
      let byID = Dictionary(templates.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      let linesByRecipe = Dictionary(grouping: lines, by: \.recipe)
      let suggestions = recipes.map { recipe in
        var seen = Set<UUID>()
        var missing: [String] = []
        for line in linesByRecipe[recipe.id] ?? [] where seen.insert(line.template).inserted {
          guard let template = byID[line.template] else { continue }
          if !template.onHand && !template.isStaple { missing.append(template.displayName) }
        }
        return Suggestion(recipe: recipe, missing: missing, ingredientCount: seen.count)
      }
      return suggestions.sorted {
        ($0.missing.count, -$0.recipe.usageCount, $0.recipe.displayName) < ($1.missing.count, -$1.recipe.usageCount, $1.recipe.displayName)
      }
    }
  }
}
