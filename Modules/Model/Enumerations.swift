/// The meal slots of a day.
public enum MealType: String, Sendable, Codable, Hashable, CaseIterable, Comparable {
  /// The slots, in the order of the day.
  case breakfast, lunch, dinner, snack

  /// Position in the day: breakfast 0 … snack 3.
  public var rank: Int {
    switch self {
    case .breakfast: 0
    case .lunch: 1
    case .dinner: 2
    case .snack: 3
    }
  }

  /// Orders meal types through the day: breakfast, lunch, dinner, snack.
  public static func < (lhs: MealType, rhs: MealType) -> Bool { lhs.rank < rhs.rank }
}

/// Where a recipe came from.
public enum SourceType: String, Sendable, Codable, Hashable, CaseIterable {
  /// From a book, from a web address, or typed in.
  case book, url, manual
}

/// What an ingredient template is, for grouping and defaults.
public enum IngredientKind: String, Sendable, Codable, Hashable, CaseIterable {
  /// The kinds of ingredient.
  case protein, vegetable, fruit, dairy, grain, pantryStaple, herb, spice, condiment, other
}

/// Where a grocery list item came from.
public enum ItemSource: String, Sendable, Codable, Hashable, CaseIterable {
  /// Added by hand, from a recipe, from a meal plan, or as a staple.
  case manual, recipe, mealPlan, staple
}

/// The measuring system a reader wants amounts shown in.
public enum UnitPreference: String, Sendable, Codable, Hashable, CaseIterable {
  /// Grams, kilograms, millilitres, litres.
  case metric
  /// US cups and spoons, ounces and pounds.
  case us
}
