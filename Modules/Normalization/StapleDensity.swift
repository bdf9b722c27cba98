/// Grams per US cup of common staples, so a list can add "2 cups" and "500 g" of flour
/// without the user giving a density first. A template's own density
/// (`ingredient set flour --grams-per-cup 125`) takes precedence.
///
/// Values from King Arthur Baking's Ingredient Weight Chart (kingarthurbaking.com,
/// "Ingredient weight chart"), the figures its test kitchen uses for a spooned and
/// levelled cup; Docs/NORMALIZATION.md §8 lists them.
///
/// ```swift
/// StapleDensity.gramsPerCup(canonicalName: SemanticKey.canonicalIngredientName("All-Purpose Flour"))   // 120
/// ```
public enum StapleDensity {
  /// The staples and their grams per cup, by the names a recipe uses for them.
  public static let table: [(names: [String], gramsPerCup: Int)] = [
    (["all-purpose flour", "flour", "plain flour", "bread flour"], 120),
    (["whole wheat flour", "wholemeal flour"], 113),
    (["sugar", "granulated sugar", "white sugar", "caster sugar"], 198),
    (["brown sugar", "light brown sugar", "dark brown sugar"], 213),
    (["confectioners' sugar", "powdered sugar", "icing sugar"], 113),
    (["butter", "unsalted butter", "salted butter"], 227),
    (["rolled oats", "oats", "old-fashioned oats"], 89),
    (["honey"], 336),
    (["milk", "whole milk"], 227),
    (["water"], 227),
    (["cocoa powder", "unsweetened cocoa powder", "cocoa"], 84),
  ]

  private static let byCanonicalName: [String: Int] = {
    var result: [String: Int] = [:]
    for row in table {
      for name in row.names { result[SemanticKey.canonicalIngredientName(name)] = row.gramsPerCup }
    }
    return result
  }()

  /// The built-in density of an ingredient, by its canonical name; nil when it has none.
  public static func gramsPerCup(canonicalName: String) -> Rational? {
    byCanonicalName[canonicalName].map { Rational($0) }
  }
}
