import Foundation

/// ISO 8601 durations for recipe times, from what people type.
enum Durations {
  /// The longest recipe time accepted: 30 days (a long ferment or cure, not more).
  static let maximumSeconds = 30 * 24 * 3600

  /// "PT1H30M" from "90", "90m", "90 min", "1h30m", "1 h 30 min", "1:30", "PT1H30M";
  /// "PT1M30S" from "PT1M30S" or "1m30s". Nil when the text is none of these or is zero.
  static func iso8601(_ text: String) -> String? {
    seconds(text).flatMap { $0 > 0 ? format(seconds: $0) : nil }
  }

  static func format(seconds: Int) -> String {
    let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
    return "PT" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 ? "\(minutes)M" : "") + (rest > 0 ? "\(rest)S" : "")
  }

  /// The duration in seconds; a bare number is minutes. Nil when the text is not a
  /// duration or is far beyond ``maximumSeconds`` (never an overflow).
  static func seconds(_ text: String) -> Int? {
    let lowered = text.lowercased().filter { !$0.isWhitespace }
    guard !lowered.isEmpty else { return nil }
    if let whole = Int(lowered) { return whole >= 0 ? scaled(whole, by: 60) : nil }
    if lowered.hasPrefix("pt") { return components(String(lowered.dropFirst(2)), units: ["h": 3600, "m": 60, "s": 1]) }
    let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), hours >= 0, (0..<60).contains(minutes) {
      return scaled(hours, by: 3600).map { $0 + minutes * 60 }
    }
    let normalized = lowered
      .replacingOccurrences(of: "hours", with: "h").replacingOccurrences(of: "hour", with: "h")
      .replacingOccurrences(of: "hrs", with: "h").replacingOccurrences(of: "hr", with: "h")
      .replacingOccurrences(of: "minutes", with: "m").replacingOccurrences(of: "minute", with: "m")
      .replacingOccurrences(of: "mins", with: "m").replacingOccurrences(of: "min", with: "m")
      .replacingOccurrences(of: "seconds", with: "s").replacingOccurrences(of: "second", with: "s")
      .replacingOccurrences(of: "secs", with: "s").replacingOccurrences(of: "sec", with: "s")
    return components(normalized, units: ["h": 3600, "m": 60, "s": 1])
  }

  /// `value × factor`, or nil when that is far beyond the maximum.
  private static func scaled(_ value: Int, by factor: Int) -> Int? {
    let (product, overflow) = value.multipliedReportingOverflow(by: factor)
    return !overflow && product <= maximumSeconds * 1_000 ? product : nil
  }

  /// Sums "<number><unit>" runs; nil on anything else.
  private static func components(_ text: String, units: [Character: Int]) -> Int? {
    var total = 0, number = "", sawUnit = false
    for character in text {
      if character.isASCII && character.isNumber {
        number.append(character)
      } else if let factor = units[character], let value = Int(number), let part = scaled(value, by: factor) {
        total += part
        number = ""
        sawUnit = true
      } else {
        return nil
      }
    }
    return number.isEmpty && sawUnit && total <= maximumSeconds * 1_000 ? total : nil
  }
}
