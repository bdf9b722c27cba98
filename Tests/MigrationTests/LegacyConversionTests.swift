import Foundation
import Migration
import Model
import Testing

/// Planned-meal instants become civil dates in the stated zone; missing meal types come
/// from the hour.
@Suite struct LegacyConversionTests {
  @Test(arguments: [
    (0, 0, MealType.dinner), (7, 30, .breakfast), (4, 0, .breakfast), (10, 59, .breakfast), (11, 0, .lunch),
    (15, 59, .lunch), (16, 0, .dinner), (21, 59, .dinner), (22, 0, .snack), (0, 1, .snack), (3, 59, .snack),
  ])
  func missingMealTypeIsInferredFromTheHour(hour: Int, minute: Int, expected: MealType) {
    #expect(LegacyConversion.inferredMealType(hour: hour, minute: minute) == expected)
  }

  @Test func anInstantIsOnTheDayItIsOnTheStatedWallClock() throws {
    // 2025-01-07 03:30 UTC: still 6 January in New York, already 7 January in Tokyo.
    let instant = try #require(ISO8601DateFormatter().date(from: "2025-01-07T03:30:00Z"))
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
    #expect(LegacyConversion.civilDate(of: instant, in: newYork)?.description == "2025-01-06")
    #expect(LegacyConversion.civilDate(of: instant, in: tokyo)?.description == "2025-01-07")
    #expect(LegacyConversion.inferredMealType(at: instant, in: newYork) == .snack)  // 22:30
    #expect(LegacyConversion.inferredMealType(at: instant, in: tokyo) == .lunch)  // 12:30
  }

  @Test func mealTypesAsTheOldAppWroteThemAreRead() {
    #expect(LegacyConversion.mealType(" Dinner ") == .dinner)
    #expect(LegacyConversion.mealType("brunch") == nil)
    #expect(LegacyConversion.mealType(nil) == nil)
  }
}
