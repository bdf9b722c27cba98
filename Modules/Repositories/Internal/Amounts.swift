import Foundation
import Normalization

/// The bounds of amounts a user types: a quantity is a positive number no larger than
/// 100,000 (of any unit), so a typo like "99999999999999999999999 cups" or "-3" is an
/// error, not a stored 1e23 or a negative amount.
enum Amounts {
  static let maximum = 100_000.0
  static let outOfRange = "the amount must be a number above 0 and at most 100,000"

  static func isReasonable(_ value: Double) -> Bool { value.isFinite && value > 0 && value <= maximum }

  /// Why a quantity's text is out of range ("-3", "−4", "1e400", "0", "0 l"), or nil. Text
  /// that does not start with a number ("½ cup" does, "a handful" does not) is taken as
  /// written; a range ("1-2 l") is bounded at both ends.
  static func problem(inQuantity text: String) -> String? {
    if let problem = signProblem(in: text) { return problem }
    let first = text.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
    if first.first.map({ $0.isNumber || $0 == "." }) == true, let value = Double(first), !isReasonable(value) {
      return outOfRange
    }
    guard startsWithNumber(text), let amount = ExactAmount.parse(text) else { return nil }
    let ends = [amount.quantity] + [amount.upperBound].compactMap { $0 }
    return ends.allSatisfy({ isReasonable($0.doubleValue) }) ? nil : outOfRange
  }

  /// Why an amount typed with a sign in front of its number ("-2 eggs", "−4 pears",
  /// "+3 cups", "－1 l") is refused, or nil. Every dash, minus and plus counts: the
  /// ingredient-line grammar reads a dash before a number as a list bullet, so "-2 eggs"
  /// would otherwise become 2 eggs.
  static func signProblem(in text: String) -> String? {
    let scalars = text.unicodeScalars.drop(while: { $0.properties.isWhitespace })
    guard let sign = scalars.first, isSign(sign) else { return nil }
    let rest = scalars.dropFirst().drop(while: { $0.properties.isWhitespace })
    guard let next = rest.first, next.properties.numericType != nil || next == "." else { return nil }
    return "\(outOfRange), written without a sign (it starts with '\(sign)')"
  }

  /// Whether `scalar` is a sign a number may be written with: "+", "−" (U+2212), any dash
  /// ("-", "–", "﹣", "－"), and their superscript, subscript, small and full-width forms.
  static func isSign(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .dashPunctuation || signs.contains(scalar)
  }

  private static let signs: Set<Unicode.Scalar> = [
    "+", "\u{2212}", "\u{FE62}", "\u{FF0B}", "\u{207A}", "\u{207B}", "\u{208A}", "\u{208B}", "\u{2795}", "\u{2796}",
  ]

  /// Whether the text's first character (after spaces) is a digit or a numeric character
  /// ("½", "２"), or a decimal point before one.
  static func startsWithNumber(_ text: String) -> Bool {
    let scalars = text.unicodeScalars.drop(while: { $0.properties.isWhitespace })
    guard let first = scalars.first else { return false }
    if first == "." { return scalars.dropFirst().first?.properties.numericType != nil }
    return first.properties.numericType != nil
  }

  /// Why a pantry amount, which is a number with an optional unit and nothing else, does
  /// not start with a number ("a handful", "a pinch", "two cups", "some"), or nil.
  static func numberProblem(inAmount text: String) -> String? {
    if let problem = signProblem(in: text) { return problem }
    guard !startsWithNumber(text) else { return nil }
    return "does not start with a number; give a number and an optional unit, e.g. 500 g, 6, 2 cups, 1 ½ lb"
  }
}
