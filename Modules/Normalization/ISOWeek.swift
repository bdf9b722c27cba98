/// An ISO 8601 week-date week, written "2025-W01": the identifier of a weekly list.
///
/// Weeks start on Monday; week 1 of a year is the week with the year's first Thursday, so
/// 29–31 December can belong to week 1 of the next year and 1–3 January to week 52 or 53
/// of the previous one. Years with 53 weeks start on a Thursday, or on a Wednesday in a
/// leap year (2015, 2020, 2026).
///
/// ```swift
/// ISOWeek.containing(year: 2024, month: 12, day: 30)?.description // "2025-W01"
/// ISOWeek(parsing: "2020-W53")?.monday                           // (2020, 12, 28)
/// ```
public struct ISOWeek: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The ISO week-numbering year, which can differ from the calendar year near 1 January.
  public let year: Int
  /// 1...52, or 1...53 in a long year.
  public let week: Int

  /// Nil unless `year` is in 1...9999 and `week` exists in that ISO year.
  public init?(year: Int, week: Int) {
    guard (1...9999).contains(year), (1...Self.weeksInYear(year)).contains(week) else { return nil }
    self.year = year
    self.week = week
  }

  /// Parses exactly "YYYY-Www" ("2025-W01"; a lowercase "w" is accepted); nil otherwise,
  /// including for week numbers the year does not have ("2025-W53").
  public init?(parsing text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 8, bytes[4] == UInt8(ascii: "-"),
      bytes[5] == UInt8(ascii: "W") || bytes[5] == UInt8(ascii: "w"),
      let year = CivilCalendar.asciiNumber(bytes[0..<4]),
      let week = CivilCalendar.asciiNumber(bytes[6..<8])
    else { return nil }
    self.init(year: year, week: week)
  }

  /// The week a valid civil date falls in (2024-12-30 → 2025-W01, 2021-01-03 → 2020-W53);
  /// nil for an invalid date.
  public static func containing(year: Int, month: Int, day: Int) -> ISOWeek? {
    guard CivilCalendar.isValid(year: year, month: month, day: day) else { return nil }
    let number = CivilCalendar.dayNumber(year: year, month: month, day: day)
    let ordinal = number - CivilCalendar.dayNumber(year: year, month: 1, day: 1) + 1
    let weekday = CivilCalendar.weekday(ofDayNumber: number)
    let week = (ordinal - weekday + 10) / 7
    if week < 1 { return ISOWeek(year: year - 1, week: weeksInYear(year - 1)) }
    if week > weeksInYear(year) { return ISOWeek(year: year + 1, week: 1) }
    return ISOWeek(year: year, week: week)
  }

  /// The Monday that starts the week.
  public var monday: (year: Int, month: Int, day: Int) {
    CivilCalendar.civilDate(fromDayNumber: Self.mondayOfWeekOne(year) + 7 * (week - 1))
  }

  /// "2025-W01".
  public var description: String {
    "\(CivilCalendar.padded(year, width: 4))-W\(CivilCalendar.padded(week, width: 2))"
  }

  /// Orders weeks by year, then by week number.
  public static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool {
    (lhs.year, lhs.week) < (rhs.year, rhs.week)
  }

  /// 53 when the year starts on a Thursday, or on a Wednesday in a leap year; else 52.
  static func weeksInYear(_ year: Int) -> Int {
    let januaryFirst = CivilCalendar.weekday(ofDayNumber: CivilCalendar.dayNumber(year: year, month: 1, day: 1))
    if januaryFirst == 4 || (januaryFirst == 3 && CivilCalendar.isLeapYear(year)) { return 53 }
    return 52
  }

  /// Day number of the Monday of week 1: the Monday on or before 4 January.
  private static func mondayOfWeekOne(_ year: Int) -> Int {
    let januaryFourth = CivilCalendar.dayNumber(year: year, month: 1, day: 4)
    return januaryFourth - (CivilCalendar.weekday(ofDayNumber: januaryFourth) - 1)
  }
}
