import Normalization
import Testing

@Suite("CivilCalendar")
struct CivilCalendarTests {
  static let validity: [(year: Int, month: Int, day: Int, valid: Bool)] = [
    (2024, 2, 29, true), (2023, 2, 29, false), (2000, 2, 29, true), (1900, 2, 29, false),
    (2100, 2, 29, false), (2400, 2, 29, true), (2023, 2, 28, true), (2024, 2, 30, false),
    (2024, 1, 31, true), (2024, 4, 30, true), (2024, 4, 31, false), (2024, 6, 31, false),
    (2024, 9, 31, false), (2024, 11, 31, false), (2024, 12, 31, true), (2024, 13, 1, false),
    (2024, 0, 1, false), (2024, 1, 0, false), (2024, 1, -1, false), (1, 1, 1, true),
    (9999, 12, 31, true), (0, 12, 31, false), (10000, 1, 1, false), (Int.max, 1, 1, false),
  ]

  @Test(arguments: validity)
  func validatesDates(year: Int, month: Int, day: Int, valid: Bool) {
    #expect(CivilCalendar.isValid(year: year, month: month, day: day) == valid)
  }

  static let parsing: [(text: String, expected: String?)] = [
    ("2024-12-13", "2024-12-13"),
    ("2024-02-29", "2024-02-29"),
    ("0001-01-01", "0001-01-01"),
    ("9999-12-31", "9999-12-31"),
    ("2023-02-29", nil),
    ("2024-13-01", nil),
    ("2024-00-10", nil),
    ("2024-04-31", nil),
    ("0000-01-01", nil),
    ("2024-1-5", nil),
    ("24-12-13", nil),
    ("2024/12/13", nil),
    ("2024-12-13T00:00", nil),
    (" 2024-12-13", nil),
    ("2024-12-1a", nil),
    ("+024-12-13", nil),
    ("２０２４-12-13", nil),
    ("", nil),
  ]

  @Test(arguments: parsing)
  func parsesOnlyStrictValidDates(text: String, expected: String?) {
    let parsed = CivilCalendar.parse(text).map {
      SemanticKey.slotKey(year: $0.year, month: $0.month, day: $0.day, mealType: "")
    }
    #expect(parsed == expected.map { $0 + "-" })
  }

  static let weekdays: [(year: Int, month: Int, day: Int, weekday: Int?)] = [
    (2024, 1, 1, 1), (2024, 12, 13, 5), (2000, 1, 1, 6), (1970, 1, 1, 4), (2023, 2, 28, 2),
    (2024, 2, 29, 4), (1, 1, 1, 1), (9999, 12, 31, 5), (2025, 6, 15, 7), (2024, 12, 30, 1),
    (2023, 2, 29, nil), (2024, 13, 1, nil),
  ]

  @Test(arguments: weekdays)
  func weekdayIsISOMondayToSunday(year: Int, month: Int, day: Int, weekday: Int?) {
    #expect(CivilCalendar.weekday(year: year, month: month, day: day) == weekday)
  }

  static let additions: [(from: String, days: Int, expected: String)] = [
    ("2024-02-28", 1, "2024-02-29"),
    ("2024-02-28", 2, "2024-03-01"),
    ("2024-02-28", 366, "2025-02-28"),
    ("2024-02-28", -59, "2023-12-31"),
    ("2024-02-28", -365, "2023-02-28"),
    ("2024-02-28", 10000, "2051-07-16"),
    ("2024-02-28", 0, "2024-02-28"),
    ("2023-12-31", 1, "2024-01-01"),
    ("2000-02-28", 1, "2000-02-29"),
    ("1900-02-28", 1, "1900-03-01"),
    ("2024-03-01", -1, "2024-02-29"),
    ("2023-03-01", -1, "2023-02-28"),
  ]

  @Test(arguments: additions)
  func addsDaysAcrossMonthsYearsAndLeapDays(from: String, days: Int, expected: String) throws {
    let start = try #require(CivilCalendar.parse(from))
    let end = try #require(CivilCalendar.parse(expected))
    #expect(CivilCalendar.adding(days: days, to: start) == end)
  }

  @Test func addingIsTotalForExtremeInputs() {
    _ = CivilCalendar.adding(days: Int.max, to: (2024, 1, 1))
    _ = CivilCalendar.adding(days: Int.min, to: (Int.max, Int.min, Int.max))
    #expect(CivilCalendar.adding(days: 1, to: (2023, 2, 31)) == (2023, 3, 1))
    #expect(CivilCalendar.adding(days: 0, to: (2024, 14, 0)) == (2024, 12, 1))
  }

  @Test func addingThenSubtractingReturnsTheSameDate() {
    var date = (year: 1999, month: 12, day: 25)
    for step in [1, 7, 30, 365, 1461, 36_524, 146_097] {
      let there = CivilCalendar.adding(days: step, to: date)
      #expect(CivilCalendar.adding(days: -step, to: there) == date)
      date = there
    }
  }
}
