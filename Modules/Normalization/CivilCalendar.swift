/// Civil-calendar arithmetic: proleptic Gregorian dates with no instant and no time zone.
///
/// A meal planned for 13 December is on 13 December on every device, so dates are plain
/// (year, month, day) triples. Supported years are 1...9999.
///
/// ```swift
/// CivilCalendar.parse("2024-02-29")                            // (2024, 2, 29)
/// CivilCalendar.weekday(year: 2024, month: 12, day: 30)        // 1 (Monday)
/// CivilCalendar.adding(days: 1, to: (2024, 2, 28))             // (2024, 2, 29)
/// ```
public enum CivilCalendar {
  /// Whether the triple names a real date in years 1...9999 (2024-02-29 yes, 2023-02-29 no).
  public static func isValid(year: Int, month: Int, day: Int) -> Bool {
    guard (1...9999).contains(year), (1...12).contains(month) else { return false }
    return (1...daysInMonth(year: year, month: month)).contains(day)
  }

  /// Parses exactly "YYYY-MM-DD" (ASCII digits, zero-padded); nil for any other text or
  /// an impossible date such as "2023-02-29" or "2024-13-01".
  public static func parse(_ text: String) -> (year: Int, month: Int, day: Int)? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = asciiNumber(bytes[0..<4]), let month = asciiNumber(bytes[5..<7]),
      let day = asciiNumber(bytes[8..<10]),
      isValid(year: year, month: month, day: day)
    else { return nil }
    return (year, month, day)
  }

  /// ISO weekday, 1 = Monday … 7 = Sunday; nil if the date is not valid.
  public static func weekday(year: Int, month: Int, day: Int) -> Int? {
    guard isValid(year: year, month: month, day: day) else { return nil }
    return weekday(ofDayNumber: dayNumber(year: year, month: month, day: day))
  }

  /// The date `days` days after `date` (before it when negative).
  ///
  /// Total: an invalid input date is first clamped field by field into range (month to
  /// 1...12, day to the month's length, year to ±1,000,000), and `days` is clamped to
  /// ±1,000,000,000,000, so the arithmetic cannot overflow. The result is outside 1...9999
  /// (and `isValid` is false for it) only if the sum leaves that range.
  public static func adding(
    days: Int, to date: (year: Int, month: Int, day: Int)
  ) -> (year: Int, month: Int, day: Int) {
    let year = min(max(date.year, -1_000_000), 1_000_000)
    let month = min(max(date.month, 1), 12)
    let day = min(max(date.day, 1), daysInMonth(year: year, month: month))
    let offset = min(max(days, -1_000_000_000_000), 1_000_000_000_000)
    return civilDate(fromDayNumber: dayNumber(year: year, month: month, day: day) + offset)
  }

  // MARK: - Internal arithmetic

  static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
  static func dayNumber(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Inverse of `dayNumber` (H. Hinnant's `civil_from_days`).
  static func civilDate(fromDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
    let z = number + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// ISO weekday of a day number; 1970-01-01 was a Thursday (4).
  static func weekday(ofDayNumber number: Int) -> Int {
    ((number % 7) + 7 + 3) % 7 + 1
  }

  /// Decimal digits of `value`, zero-padded to `width`, with a leading "-" when negative.
  static func padded(_ value: Int, width: Int) -> String {
    let digits = String(value.magnitude)
    let padding = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + padding + digits
  }

  /// The value of a run of ASCII digits; nil if any byte is not one.
  static func asciiNumber(_ bytes: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for byte in bytes {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return bytes.isEmpty ? nil : value
  }
}
