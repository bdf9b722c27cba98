import Foundation
public import Model
import Normalization

/// Explains identity to people puzzled by a merge: the semantic key a name gets for
/// each kind, the ISO week of a date, and how an ingredient line is read.
public enum Identity {
  /// The semantic key `name` gets as a `kind`, or nil for kinds without one.
  /// For books the name is the title (no author); for planned meals, "YYYY-MM-DD meal";
  /// for weekly lists, "WEEK NAME" (a week or a date in it, then the list's name).
  public static func key(for name: String, as kind: EntityKind) throws -> String? {
    switch kind {
    case .category, .tag, .groceryStore: return SemanticKey.normalizedName(try NameRules.clean(name, for: kind))
    case .ingredientTemplate: return SemanticKey.canonicalIngredientName(try NameRules.clean(name, for: kind))
    case .book: return SemanticKey.bookKey(title: try NameRules.clean(name, for: kind), author: nil)
    case .recipe: return SemanticKey.titleKey(try NameRules.clean(name, for: kind))
    case .plannedMeal:
      let parts = name.split(whereSeparator: { $0 == " " || $0 == "/" })
      guard parts.count == 2 else {
        throw RepositoryError.invalidValue(field: "slot", value: name, reason: "give a date and a meal type, e.g. 2024-12-13 dinner")
      }
      return PlannedMealRepository.slotKey(
        try PlannedMealRepository.date(String(parts[0])), try PlannedMealRepository.mealType(String(parts[1]))
      )
    case .weeklyList:
      let parts = name.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else {
        throw RepositoryError.invalidValue(field: "list", value: name, reason: "give a week and a name, e.g. 2024-W50 Weekly")
      }
      let week = try PlannedMealRepository.isoWeek(String(parts[0])).description
      return SemanticKey.listKey(week: week, name: try NameRules.clean(String(parts[1]), for: kind))
    case .recipeIngredient, .mealPlan, .groceryListItem: return nil
    }
  }

  /// The ISO week ("2025-W01") of a date, or the week itself normalized.
  public static func week(of dateOrWeek: String) throws -> String {
    try PlannedMealRepository.isoWeek(dateOrWeek).description
  }

  /// The ISO week of a date (or the week itself) with its Monday and Sunday:
  /// "2024-12-30" → ("2025-W01", 2024-12-30, 2025-01-05).
  public static func weekSpan(of dateOrWeek: String) throws -> (week: String, monday: CivilDate, sunday: CivilDate) {
    let week = try PlannedMealRepository.isoWeek(dateOrWeek)
    let days = PlannedMealRepository.days(of: week)
    guard days.count == 7, let monday = days.first, let sunday = days.last else {
      throw RepositoryError.invalidValue(field: "date", value: dateOrWeek, reason: "its week leaves the years 1–9999")
    }
    return (week.description, monday, sunday)
  }

  /// How an ingredient line is read.
  public struct ParsedLine: Sendable, Hashable {
    /// The quantity, or the lower end of a range; nil when the line has none.
    public let quantity: Double?
    /// The upper end of a range ("1-2 cups"), else nil.
    public let quantityUpperBound: Double?
    /// The canonical unit ("cup", "g"), or nil for a plain count.
    public let unit: String?
    /// The ingredient's name as written.
    public let name: String
    /// The name's semantic key: the ingredient template it finds or creates.
    public let canonicalName: String
    /// What the line says besides its amount and name ("diced", "about 3").
    public let notes: String?
  }

  /// Reads an ingredient line ("2 ½ cups diced tomatoes") into its amount, name and notes.
  public static func parse(ingredientLine line: String) -> ParsedLine {
    let parsed = IngredientLine.parse(line)
    return ParsedLine(
      quantity: parsed.quantity, quantityUpperBound: parsed.quantityUpperBound, unit: parsed.unit, name: parsed.name,
      canonicalName: parsed.canonicalName, notes: parsed.notes
    )
  }
}
