import Foundation

/// The bounds of amounts a user types: a quantity is a positive number no larger than
/// 100,000 (of any unit), so a typo like "99999999999999999999999 cups" or "-3" is an
/// error, not a stored 1e23 or a negative amount.
enum Amounts {
  static let maximum = 100_000.0
  static let outOfRange = "the amount must be a number above 0 and at most 100,000"

  static func isReasonable(_ value: Double) -> Bool { value.isFinite && value > 0 && value <= maximum }

  /// Why a quantity's text is out of range ("-3", "1e400", "0"), or nil. Text that does
  /// not start with a plain number ("1-2 l", "½ cup", "a handful") is taken as written.
  static func problem(inQuantity text: String) -> String? {
    let first = text.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
    guard first.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true, let value = Double(first) else {
      return nil
    }
    return isReasonable(value) ? nil : outOfRange
  }
}
