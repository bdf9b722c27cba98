import Foundation
/// ISO 8601 durations for recipe times, from what people type.
enum Durations {
  /// "PT1H30M" from "90", "90m", "90 min", "1h30m", "1 h 30 min", "1:30", "PT1H30M".
  /// Nil when the text is none of these or is zero.
  static func iso8601(_ text: String) -> String? {
    minutes(text).flatMap { $0 > 0 ? format($0) : nil }
  }

  static func format(_ minutes: Int) -> String {
    let hours = minutes / 60, rest = minutes % 60
    return "PT" + (hours > 0 ? "\(hours)H" : "") + (rest > 0 ? "\(rest)M" : "")
  }

  /// The longest recipe time accepted: 30 days (a long ferment or cure, not more).
  static let maximumMinutes = 30 * 24 * 60

  static func minutes(_ text: String) -> Int? {
    let lowered = text.lowercased().filter { !$0.isWhitespace }
    guard !lowered.isEmpty else { return nil }
    if let whole = Int(lowered) { return whole >= 0 ? whole : nil }
    if lowered.hasPrefix("pt") { return components(String(lowered.dropFirst(2)), units: ["h": 60, "m": 1, "s": 0]) }
    let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2, let hours = Int(parts[0]), let mins = Int(parts[1]), hours >= 0, (0..<60).contains(mins) {
      return hours * 60 + mins
    }
    let normalized = lowered
      .replacingOccurrences(of: "hours", with: "h").replacingOccurrences(of: "hour", with: "h")
      .replacingOccurrences(of: "hrs", with: "h").replacingOccurrences(of: "hr", with: "h")
      .replacingOccurrences(of: "minutes", with: "m").replacingOccurrences(of: "minute", with: "m")
      .replacingOccurrences(of: "mins", with: "m").replacingOccurrences(of: "min", with: "m")
    return components(normalized, units: ["h": 60, "m": 1])
  }

  /// Sums "<number><unit>" runs; nil on anything else.
  private static func components(_ text: String, units: [Character: Int]) -> Int? {
    var total = 0, number = "", sawUnit = false
    for character in text {
      if character.isASCII && character.isNumber {
        number.append(character)
      } else if let factor = units[character], let value = Int(number) {
        // Absurd values are out of range for the caller's bound, never an overflow.
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow, product <= maximumMinutes * 1_000 else { return nil }
        total += product
        number = ""
        sawUnit = true
      } else {
        return nil
      }
    }
    return number.isEmpty && sawUnit ? total : nil
  }
}
