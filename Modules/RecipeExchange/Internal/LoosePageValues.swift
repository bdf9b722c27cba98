import Model

/// Dates and durations as recipe pages write them when they do not write ISO 8601, read
/// only where the reading is certain (Docs/IMPORT.md, "Dates and times pages get wrong").
/// Anything else stays unread, and the field is left out with a warning.
enum LoosePageValues {
  /// A day from "2021/01/19", "Jun 16, 2023", "June 16, 2020 at 4:41pm", "Sat, 12/19/2020 -
  /// 08:25", "7 January 2020" or "21/04/2021 16:51:59". Month names are English; a
  /// day/month order is taken only when one of the two is over 12.
  static func day(_ raw: String) -> CivilDate? {
    var words = raw.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    if let first = words.first, weekdays.contains(where: { first.hasPrefix($0) }) { words.removeFirst() }
    guard let first = words.first else { return nil }
    let parts = first.split(separator: "/", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Int($0) }
    if parts.count == 3, numbers.count == 3, first.allSatisfy({ $0.isASCII }) {
      let (a, b, c) = (numbers[0], numbers[1], numbers[2])
      if first.hasPrefix(String(a)), String(a).count == 4 { return CivilDate(year: a, month: b, day: c) }
      guard c >= 1000 else { return nil }
      if a > 12, b <= 12 { return CivilDate(year: c, month: b, day: a) }
      if b > 12, a <= 12 { return CivilDate(year: c, month: a, day: b) }
      return nil
    }
    guard words.count >= 3 else { return nil }
    if let month = month(words[0]), let day = Int(words[1]), let year = Int(words[2]), year >= 1000 {
      return CivilDate(year: year, month: month, day: day)
    }
    if let day = Int(words[0]), let month = month(words[1]), let year = Int(words[2]), year >= 1000 {
      return CivilDate(year: year, month: month, day: day)
    }
    return nil
  }

  private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
  private static let fullMonths = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]

  /// 1–12 for "jun", "jun.", "june", "sept"; nil for anything else.
  private static func month(_ word: String) -> Int? {
    let bare = word.hasSuffix(".") ? String(word.dropLast()) : word
    if let index = fullMonths.firstIndex(of: bare) { return index + 1 }
    if bare == "sept" { return 9 }
    return months.firstIndex(of: bare).map { $0 + 1 }
  }

  /// Seconds from a duration a page generator wrote with empty or misplaced fields:
  /// "PTH25MS" (25 minutes), "PT1HMS", "PT0D4H45M", "P2H30M", "P30M". In a recipe an M is
  /// minutes, never months. At least one number; no signs, no fractions, no other letters.
  static func seconds(_ raw: String) -> Int? {
    let text = raw.uppercased()
    guard text.hasPrefix("P") else { return nil }
    var total = 0, digits = "", sawNumber = false
    for character in text.dropFirst() where character != "T" {
      if character.isASCII, character.isNumber {
        digits.append(character)
        continue
      }
      guard let factor = factors[character], digits.count <= 9 else { return nil }
      if let value = Int(digits) {
        // At most nine digits a field, but a page may repeat fields: saturate, so a
        // hostile "P999999999D999999999D…" reads as too long rather than overflowing.
        let (sum, overflow) = total.addingReportingOverflow(value * factor)
        total = overflow ? Int.max : sum
        sawNumber = true
      }
      digits = ""
    }
    return sawNumber && digits.isEmpty ? total : nil
  }

  private static let factors: [Character: Int] = ["D": 86_400, "H": 3600, "M": 60, "S": 1]
}
