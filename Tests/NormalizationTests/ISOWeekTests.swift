import Normalization
import Testing

@Suite("ISOWeek")
struct ISOWeekTests {
  static let containing: [(year: Int, month: Int, day: Int, expected: String)] = [
    (2024, 12, 30, "2025-W01"),
    (2021, 1, 3, "2020-W53"),
    // 2015 has 53 weeks
    (2015, 1, 1, "2015-W01"),
    (2014, 12, 29, "2015-W01"),
    (2015, 12, 31, "2015-W53"),
    (2016, 1, 3, "2015-W53"),
    (2016, 1, 4, "2016-W01"),
    // 2020 has 53 weeks (leap year starting on Wednesday)
    (2019, 12, 29, "2019-W52"),
    (2019, 12, 30, "2020-W01"),
    (2020, 12, 31, "2020-W53"),
    (2021, 1, 1, "2020-W53"),
    (2021, 1, 4, "2021-W01"),
    // 2026 has 53 weeks
    (2025, 12, 28, "2025-W52"),
    (2025, 12, 29, "2026-W01"),
    (2026, 1, 1, "2026-W01"),
    (2026, 11, 16, "2026-W47"),
    (2026, 12, 31, "2026-W53"),
    (2027, 1, 1, "2026-W53"),
    (2027, 1, 3, "2026-W53"),
    (2027, 1, 4, "2027-W01"),
    // Other year boundaries
    (2008, 12, 29, "2009-W01"),
    (2009, 12, 31, "2009-W53"),
    (2010, 1, 3, "2009-W53"),
    (2004, 12, 31, "2004-W53"),
    (2005, 1, 2, "2004-W53"),
    (2022, 1, 1, "2021-W52"),
    (2022, 1, 2, "2021-W52"),
    (2022, 1, 3, "2022-W01"),
    (2023, 1, 1, "2022-W52"),
    (2023, 1, 2, "2023-W01"),
    (2024, 1, 1, "2024-W01"),
    (2018, 12, 31, "2019-W01"),
    (2000, 1, 1, "1999-W52"),
    (2024, 2, 29, "2024-W09"),
    (2025, 1, 1, "2025-W01"),
    (1992, 12, 31, "1992-W53"),
    (2032, 12, 31, "2032-W53"),
    (1, 1, 1, "0001-W01"),
    (9999, 12, 31, "9999-W52"),
  ]

  @Test(arguments: containing)
  func containingDateGivesItsISOWeek(year: Int, month: Int, day: Int, expected: String) {
    #expect(ISOWeek.containing(year: year, month: month, day: day)?.description == expected)
  }

  static let invalidDates: [(year: Int, month: Int, day: Int)] = [
    (2023, 2, 29), (2024, 13, 1), (2024, 0, 10), (2024, 4, 31), (0, 1, 1), (10000, 1, 1),
  ]

  @Test(arguments: invalidDates)
  func containingInvalidDateIsNil(year: Int, month: Int, day: Int) {
    #expect(ISOWeek.containing(year: year, month: month, day: day) == nil)
  }

  static let weeksInYear: [(year: Int, lastWeek: Int)] = [
    (2015, 53), (2020, 53), (2026, 53), (2004, 53), (2009, 53), (1992, 53), (2032, 53),
    (2024, 52), (2025, 52), (2021, 52), (2023, 52), (2000, 52), (1, 52), (9999, 52),
  ]

  @Test(arguments: weeksInYear)
  func yearHasExactlyItsNumberOfWeeks(year: Int, lastWeek: Int) {
    #expect(ISOWeek(year: year, week: lastWeek) != nil)
    #expect(ISOWeek(year: year, week: lastWeek + 1) == nil)
  }

  static let mondays: [(year: Int, week: Int, monday: String)] = [
    (2015, 1, "2014-12-29"), (2015, 53, "2015-12-28"),
    (2020, 1, "2019-12-30"), (2020, 53, "2020-12-28"),
    (2026, 1, "2025-12-29"), (2026, 47, "2026-11-16"), (2026, 53, "2026-12-28"),
    (2025, 1, "2024-12-30"), (2025, 52, "2025-12-22"),
    (2024, 1, "2024-01-01"), (2021, 1, "2021-01-04"), (2000, 1, "2000-01-03"),
    (1, 1, "0001-01-01"), (9999, 52, "9999-12-27"),
  ]

  @Test(arguments: mondays)
  func mondayStartsTheWeek(year: Int, week: Int, monday: String) throws {
    let isoWeek = try #require(ISOWeek(year: year, week: week))
    let date = try #require(CivilCalendar.parse(monday))
    #expect(isoWeek.monday == date)
    #expect(CivilCalendar.weekday(year: date.year, month: date.month, day: date.day) == 1)
    #expect(ISOWeek.containing(year: date.year, month: date.month, day: date.day) == isoWeek)
  }

  static let parsing: [(text: String, year: Int?, week: Int?)] = [
    ("2025-W01", 2025, 1),
    ("2025-w01", 2025, 1),
    ("2020-W53", 2020, 53),
    ("2026-W47", 2026, 47),
    ("0001-W01", 1, 1),
    ("2025-W53", nil, nil),
    ("2025-W00", nil, nil),
    ("2025-W1", nil, nil),
    ("2025W01", nil, nil),
    ("25-W01", nil, nil),
    ("2025-01", nil, nil),
    ("2025-X01", nil, nil),
    (" 2025-W01", nil, nil),
    ("2025-W01 ", nil, nil),
    ("0000-W01", nil, nil),
    ("２０２５-W01", nil, nil),
    ("", nil, nil),
  ]

  @Test(arguments: parsing)
  func parsesOnlyStrictWeekIdentifiers(text: String, year: Int?, week: Int?) {
    let parsed = ISOWeek(parsing: text)
    #expect(parsed?.year == year)
    #expect(parsed?.week == week)
  }

  static let invalidWeeks: [(year: Int, week: Int)] = [
    (2025, 0), (2025, 53), (2025, -1), (2020, 54), (0, 1), (10000, 1),
  ]

  @Test(arguments: invalidWeeks)
  func rejectsWeeksTheYearDoesNotHave(year: Int, week: Int) {
    #expect(ISOWeek(year: year, week: week) == nil)
  }

  @Test func descriptionRoundTripsThroughParsing() throws {
    for year in [1, 999, 2015, 2020, 2025, 2026, 9999] {
      for week in [1, 10, 52] {
        let isoWeek = try #require(ISOWeek(year: year, week: week))
        #expect(ISOWeek(parsing: isoWeek.description) == isoWeek)
      }
    }
    #expect(ISOWeek(year: 999, week: 7)?.description == "0999-W07")
  }

  @Test func weeksOrderByYearThenWeek() throws {
    let a = try #require(ISOWeek(year: 2020, week: 53))
    let b = try #require(ISOWeek(year: 2021, week: 1))
    let c = try #require(ISOWeek(year: 2021, week: 2))
    #expect(a < b)
    #expect(b < c)
    #expect([c, a, b].sorted() == [a, b, c])
  }

  @Test func everyDayOfAWeekBelongsToThatWeek() throws {
    let week = try #require(ISOWeek(year: 2026, week: 53))
    for offset in 0..<7 {
      let date = CivilCalendar.adding(days: offset, to: week.monday)
      #expect(ISOWeek.containing(year: date.year, month: date.month, day: date.day) == week)
    }
  }
}
