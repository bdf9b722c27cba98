import Model
import Testing

@Suite("Civil dates")
struct CivilDateTests {
  @Test(arguments: ["2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31", "2024-12-13"])
  func validDatesReadBackAsWritten(_ text: String) throws {
    #expect(try #require(CivilDate(iso: text)).description == text)
  }

  @Test(arguments: [
    "2023-02-29", "1900-02-29", "2024-13-01", "2024-04-31", "2024-1-05", "24-01-05", "2024-01-05T10:00", "", "abcd-ef-gh", "２０２４-01-05",
  ])
  func impossibleOrMalformedDatesAreRejected(_ text: String) {
    #expect(CivilDate(iso: text) == nil)
  }

  @Test func datesOrderByCalendar() throws {
    let dates = try ["2025-01-01", "2024-12-31", "2024-02-01"].map { try #require(CivilDate(iso: $0)) }
    #expect(dates.sorted().map(\.description) == ["2024-02-01", "2024-12-31", "2025-01-01"])
  }

  @Test func mealTypesOrderThroughTheDay() {
    #expect(MealType.allCases.sorted() == [.breakfast, .lunch, .dinner, .snack])
    #expect(MealType(rawValue: "brunch") == nil)
  }
}
