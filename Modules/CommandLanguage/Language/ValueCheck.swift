import Foundation
import Model

/// Checks argument values against their ``ValueType`` at parse time and returns the
/// value in its canonical spelling ("Dinner" → "dinner").
enum ValueCheck {
  /// The value in its canonical spelling, or why it is not one of `type` or lies outside
  /// `range` (for `.integer` and `.number`).
  static func check(_ text: String, as type: ValueType, within range: ValueRange?) -> Result<String, ValueProblem> {
    let checked = check(text, as: type)
    guard let range, case .success(let value) = checked, let number = Double(value), !range.contains(number) else { return checked }
    let kind = type == .integer ? "a whole number" : "a number"
    return .failure(ValueProblem("'\(text)' is out of range; give \(kind) \(range)"))
  }

  static func check(_ text: String, as type: ValueType) -> Result<String, ValueProblem> {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    switch type {
    case .text:
      return .success(text)
    case .name:
      guard !trimmed.isEmpty else { return .failure(ValueProblem("is empty; give a name")) }
      if let (position, scalar) = ValueRules.firstForbidden(in: text, allowingLineBreaks: false) {
        return .failure(ValueProblem("holds \(ValueRules.describe(scalar)) at character \(position)"))
      }
      return .success(text)
    case .comparison:
      if ["=", "==", ">=", "<=", ">", "<", "!="].contains(trimmed) { return .success(trimmed) }
      guard let number = Int(trimmed), number >= 0 else {
        return .failure(ValueProblem("'\(text)' is neither a count (a whole number from 0) nor a comparison (=, >=, <=, >, <, !=)"))
      }
      return .success(String(number))
    case .integer:
      guard let number = Int(trimmed) else { return .failure(ValueProblem("'\(text)' is not a whole number")) }
      return .success(String(number))
    case .number:
      // Plain decimals only: "1.5", "120", "-3" (the command says why it is out of range);
      // not "1e3", "inf", "nan" or "0x10".
      let digits = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), digits.filter({ $0 == "." }).count <= 1,
        digits.contains(where: \.isNumber), let number = Double(trimmed)
      else { return .failure(ValueProblem("'\(text)' is not a number; use digits with an optional decimal point, e.g. 1.5")) }
      return .success(number.isFinite ? trimmed : String(number))
    case .waitCondition:
      guard SyncWaitCommands.Condition.parse(trimmed) != nil else {
        return .failure(ValueProblem("cannot wait until '\(text)'; give \(SyncWaitCommands.Condition.forms)"))
      }
      return .success(text)
    case .date:
      guard let date = CivilDate(iso: trimmed) else {
        return .failure(ValueProblem("'\(text)' is not a date; use YYYY-MM-DD, e.g. 2024-12-13"))
      }
      return .success(date.description)
    case .mealType:
      guard let meal = MealType(rawValue: trimmed.lowercased()) else {
        let known = MealType.allCases.map(\.rawValue).joined(separator: ", ")
        return .failure(ValueProblem("'\(text)' is not a meal type; use one of \(known)"))
      }
      return .success(meal.rawValue)
    case .week:
      if let date = CivilDate(iso: trimmed) { return .success(date.description) }
      guard isWeek(trimmed) else {
        return .failure(ValueProblem("'\(text)' is not an ISO week or a date; use YYYY-Www (2026-W47) or YYYY-MM-DD"))
      }
      return .success(trimmed.uppercased())
    case .kind:
      guard let kind = kind(trimmed) else {
        return .failure(ValueProblem("'\(text)' is not a kind; use one of \(kindWords.joined(separator: ", "))"))
      }
      return .success(kind.rawValue)
    case .boolean:
      guard let flag = boolean(trimmed) else { return .failure(ValueProblem("'\(text)' is not yes or no")) }
      return .success(flag ? "yes" : "no")
    case .choice(let words):
      guard let word = words.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
        return .failure(ValueProblem("'\(text)' is not one of \(words.joined(separator: ", "))"))
      }
      return .success(word)
    }
  }

  /// The kinds people can name, as they say them.
  static let kindWords = ["category", "tag", "ingredient", "book", "recipe", "meal", "plan", "list", "item"]

  static func kind(_ text: String) -> EntityKind? {
    EntityKind(userInput: text)
  }

  static func boolean(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "yes", "y", "true", "on", "1": true
    case "no", "n", "false", "off", "0": false
    default: nil
    }
  }

  /// "2026-W47": four digits, "-W", one or two digits from 1 to 53.
  static func isWeek(_ text: String) -> Bool {
    let parts = text.uppercased().split(separator: "-W", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isNumber), (1...2).contains(parts[1].count),
      let week = Int(parts[1]), (1...53).contains(week)
    else { return false }
    return true
  }
}

struct ValueProblem: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
