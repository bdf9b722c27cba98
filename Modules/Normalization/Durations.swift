import Foundation

/// ISO 8601 durations for recipe times, from what people type and what web pages publish.
///
/// ```swift
/// Durations.iso8601("1h30m")          // "PT1H30M"
/// Durations.iso8601("P0DT1H20M")      // "PT1H20M"
/// Durations.seconds("PT 35 minutes")  // nil: not a duration
/// ```
public enum Durations {
  /// The longest recipe time accepted: 30 days (a long ferment or cure, not more).
  public static let maximumSeconds = 30 * 24 * 3600

  /// "PT1H30M" from "90", "90m", "90 min", "1h30m", "1 h 30 min", "1:30", "PT1H30M",
  /// "PT90M", "PT5400S", "P0DT1H30M" or "P0Y0M0DT1H30M"; "PT1M30S" from "PT1M30S" or
  /// "1m30s". Nil when the text is none of these or is zero ("PT0S" is how pages say
  /// "unknown").
  public static func iso8601(_ text: String) -> String? {
    seconds(text).flatMap { $0 > 0 ? format(seconds: $0) : nil }
  }

  /// "PT1H30M" for 5400 seconds: hours, minutes and seconds, days written as hours.
  public static func format(seconds: Int) -> String {
    let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
    return "PT" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 ? "\(minutes)M" : "") + (rest > 0 ? "\(rest)S" : "")
  }

  /// The duration in seconds; a bare number is minutes. Nil when the text is not a
  /// duration, is negative, or is far beyond ``maximumSeconds`` (never an overflow).
  public static func seconds(_ text: String) -> Int? {
    let lowered = text.lowercased().filter { !$0.isWhitespace }
    guard !lowered.isEmpty else { return nil }
    if let whole = Int(lowered) { return whole >= 0 ? scaled(whole, by: 60) : nil }
    if lowered.hasPrefix("p") { return designated(String(lowered.dropFirst())) }
    let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), hours >= 0, (0..<60).contains(minutes) {
      return scaled(hours, by: 3600).map { $0 + minutes * 60 }
    }
    let normalized =
      lowered
      .replacingOccurrences(of: "hours", with: "h").replacingOccurrences(of: "hour", with: "h")
      .replacingOccurrences(of: "hrs", with: "h").replacingOccurrences(of: "hr", with: "h")
      .replacingOccurrences(of: "minutes", with: "m").replacingOccurrences(of: "minute", with: "m")
      .replacingOccurrences(of: "mins", with: "m").replacingOccurrences(of: "min", with: "m")
      .replacingOccurrences(of: "seconds", with: "s").replacingOccurrences(of: "second", with: "s")
      .replacingOccurrences(of: "secs", with: "s").replacingOccurrences(of: "sec", with: "s")
    return components(normalized, units: timeUnits)
  }

  private static let timeUnits: [Character: Int] = ["h": 3600, "m": 60, "s": 1]
  /// Date designators of an ISO 8601 duration. A year or a month has no fixed length;
  /// pages write "P0Y0M", so only zero years and months are read.
  private static let dateUnits: [Character: Int] = ["w": 7 * 86_400, "d": 86_400, "y": 0, "m": 0]

  /// The part after "P": "[nY][nM][nW][nD][T[nH][nM][nS]]", lowercased, without spaces.
  private static func designated(_ text: String) -> Int? {
    let halves = text.split(separator: "t", maxSplits: 1, omittingEmptySubsequences: false)
    let datePart = String(halves[0]), timePart = halves.count > 1 ? String(halves[1]) : nil
    if let timePart, timePart.isEmpty { return nil }
    guard !datePart.isEmpty || timePart != nil else { return nil }
    var total = 0
    if !datePart.isEmpty {
      // Years and months count only when zero: their factor 0 would hide a real "P1M".
      if runs(datePart)?.contains(where: { dateUnits[$0.unit] == 0 && Int($0.digits) != 0 }) == true { return nil }
      guard let days = components(datePart, units: dateUnits) else { return nil }
      total += days
    }
    if let timePart {
      guard let time = components(timePart, units: timeUnits) else { return nil }
      total += time
    }
    return total <= maximumSeconds * 1_000 ? total : nil
  }

  /// The "<digits><unit>" runs of the text, or nil when something else is in it.
  private static func runs(_ text: String) -> [(unit: Character, digits: String)]? {
    var result: [(unit: Character, digits: String)] = [], number = ""
    for character in text {
      if character.isASCII && character.isNumber {
        number.append(character)
      } else if !number.isEmpty {
        result.append((character, number))
        number = ""
      } else {
        return nil
      }
    }
    return number.isEmpty ? result : nil
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
