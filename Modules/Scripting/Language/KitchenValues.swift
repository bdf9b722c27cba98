import CommandLanguage
import Foundation
import Model

/// The kitchen's value types, checked when a command is parsed like the language's own:
/// names, dates, meal types, weeks, kinds of record, `expect count`'s comparison and
/// `sync wait`'s condition.
extension ValueType {
  /// A name: not empty, no control characters (`ValueRules`).
  static let name = ValueType.custom(
    ValueFormat("name", placeholder: "NAME") { text in
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .failure(ValueProblem("is empty; give a name")) }
      if let (position, scalar) = ValueRules.firstForbidden(in: text, allowingLineBreaks: false) {
        return .failure(ValueProblem("holds \(ValueRules.describe(scalar)) at character \(position)"))
      }
      return .success(text)
    })

  /// A calendar date "YYYY-MM-DD".
  static let date = ValueType.custom(
    ValueFormat("date", placeholder: "DATE") { text in
      guard let date = CivilDate(iso: text.trimmingCharacters(in: .whitespaces)) else {
        return .failure(ValueProblem("'\(text)' is not a date; use YYYY-MM-DD, e.g. 2024-12-13"))
      }
      return .success(date.description)
    })

  /// breakfast, lunch, dinner or snack.
  static let mealType = ValueType.custom(
    ValueFormat("meal type", placeholder: "MEAL") { text in
      guard let meal = MealType(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
        let known = MealType.allCases.map(\.rawValue).joined(separator: ", ")
        return .failure(ValueProblem("'\(text)' is not a meal type; use one of \(known)"))
      }
      return .success(meal.rawValue)
    })

  /// An ISO week "YYYY-Www" or a date in it.
  static let week = ValueType.custom(
    ValueFormat("week", placeholder: "WEEK") { text in
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if let date = CivilDate(iso: trimmed) { return .success(date.description) }
      guard KitchenValues.isWeek(trimmed) else {
        return .failure(ValueProblem("'\(text)' is not an ISO week or a date; use YYYY-Www (2026-W47) or YYYY-MM-DD"))
      }
      return .success(trimmed.uppercased())
    })

  /// A kind of record: category, tag, ingredient, book, recipe, meal, plan, list, item.
  static let kind = ValueType.custom(
    ValueFormat("kind", placeholder: "KIND") { text in
      guard let kind = EntityKind(userInput: text.trimmingCharacters(in: .whitespaces)) else {
        return .failure(ValueProblem("'\(text)' is not a kind; use one of \(KitchenValues.kindWords.joined(separator: ", "))"))
      }
      return .success(kind.rawValue)
    })

  /// `expect count`'s expectation, word by word: a whole number from 0, or a comparison
  /// (=, >=, <=, >, <, !=).
  static let comparison = ValueType.custom(
    ValueFormat("comparison", placeholder: "[OP] N") { text in
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if ["=", "==", ">=", "<=", ">", "<", "!="].contains(trimmed) { return .success(trimmed) }
      guard let number = Int(trimmed), number >= 0 else {
        return .failure(ValueProblem("'\(text)' is neither a count (a whole number from 0) nor a comparison (=, >=, <=, >, <, !=)"))
      }
      return .success(String(number))
    })

  /// What `sync wait --until` waits for: caught-up, "item NAME on LIST" or
  /// "item NAME checked on LIST".
  static let waitCondition = ValueType.custom(
    ValueFormat("wait condition", placeholder: "CONDITION") { text in
      guard SyncWaitCommands.Condition.parse(text.trimmingCharacters(in: .whitespaces)) != nil else {
        return .failure(ValueProblem("cannot wait until '\(text)'; give \(SyncWaitCommands.Condition.forms)"))
      }
      return .success(text)
    })
}

/// The kitchen's completions: names from the current store, the session's devices.
extension Completion {
  /// Names of live records of `kind` in the current store.
  static func names(_ kind: EntityKind) -> Completion { .source(KitchenValues.namesSource + kind.rawValue) }

  /// Device names in the session.
  static let devices = Completion.source(KitchenValues.devicesSource)
}

/// The words and rules behind the kitchen's value types and completions.
enum KitchenValues {
  /// The kinds people can name, as they say them.
  static let kindWords = ["category", "tag", "ingredient", "book", "recipe", "meal", "plan", "list", "item"]

  /// The completion source of the names of one kind: this prefix and the kind's raw value.
  static let namesSource = "names:"
  /// The completion source of the session's device names.
  static let devicesSource = "devices"

  /// "2026-W47": four digits, "-W", one or two digits from 1 to 53.
  static func isWeek(_ text: String) -> Bool {
    let parts = text.uppercased().split(separator: "-W", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isNumber), (1...2).contains(parts[1].count),
      let week = Int(parts[1]), (1...53).contains(week)
    else { return false }
    return true
  }
}
