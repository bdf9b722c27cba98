import Foundation

/// ISO 8601 durations for recipe times, from what people type and what web pages publish.
///
/// ```swift
/// Durations.iso8601("1h30m")          // "PT1H30M"
/// Durations.iso8601("P0DT1H20M")      // "PT1H20M"
/// Durations.iso8601("1 hr 20 mins")   // "PT1H20M"
/// Durations.seconds("PT 35 minutes")  // nil: not a duration
/// ```
public enum Durations {
  /// The longest recipe time accepted: 30 days (a long ferment or cure, not more).
  public static let maximumSeconds = 30 * 24 * 3600

  /// "PT1H30M" from "90", "90m", "90 min", "1h30m", "1 h 30 min", "1:30", "PT1H30M",
  /// "PT90M", "PT5400S", "P0DT1H30M", "P0Y0M0DT1H30M", "1 hr 30 mins", "1.5 hours",
  /// "1h30" or "1 hour and 30 minutes"; "PT1M30S" from "PT1M30S" or "1m30s". Nil when the text is none of these or is zero ("PT0S" is how pages say
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
    return spoken(lowered)
  }

  /// Words for units as people and recipe apps write them, longest first so that "hours"
  /// is read before "hour" and "hr".
  private static let spokenUnits: [(word: String, unit: String)] = [
    ("hours", "h"), ("hour", "h"), ("hrs", "h"), ("hr", "h"), ("minutes", "m"), ("minute", "m"), ("mins", "m"),
    ("min", "m"), ("seconds", "s"), ("second", "s"), ("secs", "s"), ("sec", "s"), ("days", "d"), ("day", "d"),
  ]
  private static let spokenFactors: [Character: Int] = ["d": 86_400, "h": 3600, "m": 60, "s": 1]

  /// Free text as recipe apps store it (Paprika, Mealie): "1 hr 20 mins", "1 hour",
  /// "45 min", "1h30" (minutes after hours need no unit), "1.5 hours", "2 days",
  /// "1 hour and 20 minutes", "1 hr. 20 min.". `text` is lowercased, without spaces.
  private static func spoken(_ text: String) -> Int? {
    var normalized = text.replacingOccurrences(of: "and", with: "").replacingOccurrences(of: ",", with: "")
    // A full stop after a letter ends an abbreviation ("hr."); one between digits is a decimal point.
    var kept = ""
    for character in normalized where !(character == "." && (kept.last?.isLetter ?? false)) { kept.append(character) }
    normalized = kept
    for (word, unit) in spokenUnits { normalized = normalized.replacingOccurrences(of: word, with: unit) }
    var total = 0, number = "", lastUnit: Character?
    for character in normalized {
      if (character.isASCII && character.isNumber) || (character == "." && !number.contains(".")) {
        number.append(character)
      } else if let factor = spokenFactors[character], let part = part(number, factor) {
        total += part
        number = ""
        lastUnit = character
      } else {
        return nil
      }
    }
    // "1h30": a bare number after hours is minutes.
    if !number.isEmpty {
      guard lastUnit == "h", let minutes = part(number, 60) else { return nil }
      total += minutes
    }
    return lastUnit != nil && total <= maximumSeconds * 1_000 ? total : nil
  }

  /// `number × factor` seconds, rounded, for a whole or decimal number; nil for junk or
  /// a value far beyond the maximum.
  private static func part(_ number: String, _ factor: Int) -> Int? {
    guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
    let seconds = value * Double(factor)
    return seconds <= Double(maximumSeconds * 1_000) ? Int(seconds.rounded()) : nil
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
