import Foundation

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
    case .boolean:
      guard let flag = boolean(trimmed) else { return .failure(ValueProblem("'\(text)' is not yes or no")) }
      return .success(flag ? "yes" : "no")
    case .choice(let words):
      guard let word = words.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
        return .failure(ValueProblem("'\(text)' is not one of \(words.joined(separator: ", "))"))
      }
      return .success(word)
    case .custom(let format):
      return format.check(text)
    }
  }

  static func boolean(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "yes", "y", "true", "on", "1": true
    case "no", "n", "false", "off", "0": false
    default: nil
    }
  }
}

/// Why a typed value is not one of its type, as the usage error says it:
/// "'2024-13-01' is not a date; use YYYY-MM-DD".
public struct ValueProblem: Error, Sendable {
  /// The reason, without the command or argument (the parser adds them).
  public let reason: String
  /// A problem with `reason`.
  public init(_ reason: String) { self.reason = reason }
}
