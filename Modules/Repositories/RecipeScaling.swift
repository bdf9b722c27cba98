import Foundation
import Model
import Normalization

/// How much of a recipe to make: a number of servings, read against the recipe's yield,
/// or a factor.
///
/// ```swift
/// let double = try library.recipes.details("Pancakes", scaledBy: .servings(8))   // yield "4 servings": × 2
/// _ = try library.lists.addRecipe("Pancakes", to: "Groceries", scaledBy: .factor(1.5))
/// ```
public enum RecipeScale: Sendable, Hashable {
  /// Scale to this many servings, by the recipe's yield.
  case servings(Double)
  /// Multiply every amount by this factor.
  case factor(Double)

  /// The most servings a user may ask for.
  public static let maximumServings = 1_000.0
  /// The largest factor a user may ask for.
  public static let maximumFactor = 100.0

  /// The factor for a recipe with this yield.
  /// - Throws: ``RepositoryError/invalidValue(field:value:reason:)`` for servings or a
  ///   factor out of range, or servings for a recipe whose yield has no number.
  func factor(recipe: Recipe) throws -> Double {
    switch self {
    case .factor(let factor):
      guard factor.isFinite, factor > 0, factor <= Self.maximumFactor else {
        throw RepositoryError.invalidValue(
          field: "scale", value: Self.text(factor), reason: "the scale must be a number above 0 and at most \(Int(Self.maximumFactor))")
      }
      return factor
    case .servings(let servings):
      guard servings.isFinite, servings > 0, servings <= Self.maximumServings else {
        throw RepositoryError.invalidValue(
          field: "servings", value: Self.text(servings),
          reason: "the servings must be a number above 0 and at most \(Int(Self.maximumServings))")
      }
      guard let yield = Self.servings(inYield: recipe.recipeYield) else {
        throw RepositoryError.invalidValue(
          field: "servings", value: Self.text(servings),
          reason: "recipe '\(recipe.displayName)' has no yield with a number to scale from (set one with --yield, or use --scale)")
      }
      return servings / yield
    }
  }

  /// The number a yield starts with: "4 servings" → 4, "Serves 4-6" → 4, "12" → 12;
  /// nil when it has none ("a crowd").
  public static func servings(inYield yield: String?) -> Double? {
    guard let yield else { return nil }
    if let quantity = IngredientLine.parse(yield).quantity, quantity > 0 { return quantity }
    let digits = yield.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }
    return Double(digits).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
  }

  private static func text(_ value: Double) -> String { WeeklyListRepository.format(value) }
}

extension RecipeDetails {
  /// The same recipe with every line's quantity (and range) multiplied by `factor`;
  /// lines without a quantity ("salt to taste") stay as written.
  func scaled(by factor: Double) -> RecipeDetails {
    guard factor != 1 else { return self }
    let scaledLines = lines.map { line in
      var ingredient = line.ingredient
      ingredient.quantity = ingredient.quantity.map { $0 * factor }
      return Line(ingredient: ingredient, template: line.template)
    }
    return RecipeDetails(recipe: recipe, lines: scaledLines, book: book, tags: tags, plannedMeals: plannedMeals)
  }
}

extension RecipeRepository {
  /// A recipe's details with its quantities scaled, and the factor used.
  /// - Throws: what ``details(_:)`` throws, and the errors of ``RecipeScale``.
  public func details(_ nameOrID: String, scaledBy scale: RecipeScale) throws -> (details: RecipeDetails, factor: Double) {
    let details = try details(nameOrID)
    let factor = try scale.factor(recipe: details.recipe)
    return (details.scaled(by: factor), factor)
  }
}
