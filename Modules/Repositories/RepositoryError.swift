public import Foundation
public import Model

/// Why a repository refused an operation, written for the person at the prompt.
/// Nothing was written when one is thrown.
public enum RepositoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A name was empty or only whitespace.
  case emptyName(EntityKind)
  /// A name is longer than ``NameRules/maximumLength``.
  case nameTooLong(EntityKind, length: Int, maximum: Int)
  /// No live record of this kind has this name or id.
  case notFound(EntityKind, String)
  /// Several live records share this name; an id picks one.
  case ambiguous(EntityKind, String, ids: [UUID])
  /// Renaming would give a record the semantic key another live record holds.
  case renameCollision(EntityKind, newName: String, existingName: String, existingID: UUID)
  /// A delete was refused because other records still need this one.
  case inUse(EntityKind, String, usedBy: [String])
  /// A date was not a real calendar date "YYYY-MM-DD".
  case invalidDate(String)
  /// A meal type was not breakfast, lunch, dinner or snack.
  case unknownMealType(String)
  /// A week was not an ISO week "YYYY-Www".
  case invalidWeek(String)
  /// An ingredient line could not be used.
  case invalidIngredientLine(number: Int, line: String, reason: String)
  /// Any other field value that cannot be accepted.
  case invalidValue(field: String, value: String, reason: String)
  /// An alias already names another ingredient.
  case aliasCollision(alias: String, existingName: String, existingID: UUID)
  /// A deleted record cannot come back: a live record holds its name now and is kept.
  case restoreCollision(EntityKind, name: String, existingName: String, existingID: UUID)
  /// The record to restore is not deleted.
  case notDeleted(EntityKind, String)
  /// A write was asked of a library that only reads (the one an observed query runs on).
  case readOnly

  /// A message naming the value and what was wrong with it.
  public var description: String {
    switch self {
    case .emptyName(let kind):
      "a \(kind.label) name cannot be empty"
    case .nameTooLong(let kind, let length, let maximum):
      "a \(kind.label) name can have at most \(maximum) characters (this one has \(length))"
    case .notFound(let kind, let reference):
      "no \(kind.label) named '\(reference)'"
    case .ambiguous(let kind, let name, let ids):
      "\(ids.count) \(kind.label)s are named '\(name)'; use "
        + (kind == .weeklyList ? "the week and the name (2024-W50 \(name)) or " : "")
        + "an id: \(ids.map(\.shortText).joined(separator: ", "))"
    case .renameCollision(let kind, let newName, let existingName, let existingID):
      "cannot rename to '\(newName)': \(kind.label) '\(existingName)' already exists (id \(existingID.shortText))"
    case .inUse(let kind, let name, let usedBy):
      "cannot delete \(kind.label) '\(name)': still used by \(usedBy.prefix(5).joined(separator: ", "))\(usedBy.count > 5 ? " and \(usedBy.count - 5) more" : "")"
    case .invalidDate(let text):
      "'\(text)' is not a date; use YYYY-MM-DD, e.g. 2024-12-13"
    case .unknownMealType(let text):
      "'\(text)' is not a meal type; use one of \(MealType.allCases.map(\.rawValue).joined(separator: ", "))"
    case .invalidWeek(let text):
      "'\(text)' is not an ISO week; use YYYY-Www, e.g. 2026-W47, or a date"
    case .invalidIngredientLine(let number, let line, let reason):
      "ingredient line \(number) '\(line)': \(reason)"
    case .invalidValue(let field, let value, let reason):
      "\(field) '\(value)': \(reason)"
    case .aliasCollision(let alias, let existingName, let existingID):
      "alias '\(alias)' already names ingredient '\(existingName)' (id \(existingID.shortText))"
    case .restoreCollision(let kind, let name, let existingName, let existingID):
      "cannot restore \(kind.label) '\(name)': \(kind.label) '\(existingName)' (id \(existingID.shortText)) holds its name now and is kept"
    case .notDeleted(let kind, let name):
      "\(kind.label) '\(name)' is not deleted"
    case .readOnly:
      "an observed query only reads; it cannot write"
    }
  }
}

extension EntityKind {
  /// The kind as people say it: "category", "ingredient", "planned meal".
  public var label: String {
    switch self {
    case .category: "category"
    case .tag: "tag"
    case .ingredientTemplate: "ingredient"
    case .book: "book"
    case .recipe: "recipe"
    case .recipeIngredient: "recipe ingredient"
    case .plannedMeal: "planned meal"
    case .mealPlan: "meal plan"
    case .weeklyList: "weekly list"
    case .groceryListItem: "list item"
    case .groceryStore: "store"
    }
  }
}

extension UUID {
  /// The lowercase id text shown to people.
  public var shortText: String { uuidString.lowercased() }
}
