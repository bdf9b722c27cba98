import Model
import Normalization
import Testing

/// Seeded random inputs built from the characters the parsers care about: every function
/// returns (never traps) and the key functions stay idempotent.
@Suite("Totality")
struct TotalityTests {
  static let pieces: [String] = [
    "1", "2", "0", "9", "/", ".", ",", ";", "-", "–", "½", "⅓", "¾", "⁄", " ", "  ", "\t", "\n",
    "\u{00A0}", "(", ")", "[", "]", "cup", "cups", "T", "t", "tbsp", "g", "kg", "fl", "oz", "of",
    "to", "or", "a", "an", "two", "large", "diced", "finely", "chopped", "and", "to taste",
    "optional", "tomatoes", "leaves", "cloves", "garlic", "berries", "ß", "İ", "é", "e\u{0301}",
    "ﬁ", "Ｆ", "ı", "œ", "'", "’", "&", "|", "%", "~", "•", "\u{200B}", "\u{0300}", "がん", "σ",
    "9999999999999999999999999", "W", "w", "in", "with", "s", "es", "ies", "ves",
  ]

  static let seeds: [UInt64] = [1, 2, 3, 42, 2024, 0xF00D]

  @Test(arguments: seeds)
  func everyFunctionIsTotalOnRandomText(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<300 {
      let count = Int.random(in: 0...12, using: &generator)
      let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()

      let normalized = SemanticKey.normalizedName(text)
      #expect(SemanticKey.normalizedName(normalized) == normalized, "seed \(seed): \(text.debugDescription)")
      let canonical = SemanticKey.canonicalIngredientName(text)
      #expect(SemanticKey.canonicalIngredientName(canonical) == canonical, "seed \(seed): \(text.debugDescription)")
      let title = SemanticKey.titleKey(text)
      #expect(SemanticKey.titleKey(title) == title, "seed \(seed): \(text.debugDescription)")
      #expect(!title.contains("|"))

      let line = IngredientLine.parse(text)
      #expect(line.canonicalName == SemanticKey.canonicalIngredientName(line.name))
      #expect(line.quantity.map(\.isFinite) ?? true, "seed \(seed): \(text.debugDescription)")
      #expect(line.notes.map { !$0.isEmpty } ?? true)

      _ = SemanticKey.bookKey(title: text, author: text)
      _ = Inflection.singularizeHeadNoun(text)
      _ = Inflection.singular(text)
      _ = ISOWeek(parsing: text)
      _ = CivilCalendar.parse(text)
    }
  }

  @Test func extremeNumbersAreTotal() {
    _ = SemanticKey.slotKey(year: Int.min, month: Int.max, day: Int.min, mealType: "x")
    _ = ISOWeek(year: Int.max, week: Int.min)
    _ = ISOWeek.containing(year: Int.min, month: 1, day: 1)
    _ = CivilCalendar.weekday(year: Int.max, month: Int.max, day: Int.max)
    #expect(SemanticKey.slotKey(year: -5, month: 1, day: 2, mealType: "Lunch") == "-0005-01-02-lunch")
    #expect(IngredientLine.parse(String(repeating: "9", count: 400) + " g salt").quantity == nil)
  }
}
