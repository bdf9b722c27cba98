import Normalization
import Testing

@Suite("slotKey")
struct SlotKeyTests {
  static let cases: [(year: Int, month: Int, day: Int, mealType: String, expected: String)] = [
    (2024, 12, 13, "dinner", "2024-12-13-dinner"),
    (2024, 12, 13, "Dinner", "2024-12-13-dinner"),
    (2024, 12, 13, "  DINNER ", "2024-12-13-dinner"),
    (2025, 1, 5, "breakfast", "2025-01-05-breakfast"),
    (2025, 3, 9, "lunch", "2025-03-09-lunch"),
    (2025, 10, 31, "snack", "2025-10-31-snack"),
    (999, 1, 1, "lunch", "0999-01-01-lunch"),
    (1, 1, 1, "dinner", "0001-01-01-dinner"),
    (2024, 2, 29, "late   supper", "2024-02-29-late supper"),
  ]

  @Test(arguments: cases)
  func formatsZeroPaddedDateAndMealType(year: Int, month: Int, day: Int, mealType: String, expected: String) {
    #expect(SemanticKey.slotKey(year: year, month: month, day: day, mealType: mealType) == expected)
  }
}
