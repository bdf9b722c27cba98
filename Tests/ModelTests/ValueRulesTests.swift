import Foundation
import Model
import Testing

/// Each rule of the one rule set refuses the input it exists for, and lets the honest
/// neighbour of that input through.
@Suite("Value rules")
struct ValueRulesTests {
  @Test(
    arguments: [
      ("Produce", nil), ("Crème brûlée", nil), ("👨‍👩‍👧‍👦 snacks", nil), (String(repeating: "a", count: 200), nil),
      (String(repeating: "a", count: 201), "has 201 characters; the limit is 200"),
      (String(repeating: "é", count: 201), "has 201 characters; the limit is 200"),
      ("a" + String(repeating: "\u{301}", count: 5_000), "is 10001 bytes long; the limit is 4000"),
      ("Pro\u{0}duce", "holds a control character (U+0000) at character 4"),
      ("Pro\nduce", "holds a control character (U+000A) at character 4"),
      ("Pro\u{7F}duce", "holds a control character (U+007F) at character 4"),
      ("Pro\u{85}duce", "holds a control character (U+0085) at character 4"),
      ("e\u{202E}cudorP", "holds a bidi override (U+202E) at character 2"),
      ("é\u{2067}x", "holds a bidi override (U+2067) at character 2"),
      ("a\u{2028}b", "holds a line separator (U+2028) at character 2"),
    ] as [(String, String?)])
  func aNameKeepsItsLengthAndCharacters(_ text: String, _ problem: String?) {
    #expect(ValueRules.textProblem(text, .name) == problem)
  }

  @Test func paragraphsMayBreakLinesButNotHoldOtherControls() {
    #expect(ValueRules.textProblem("Mix.\n\tThen bake.\r\n", .paragraphs) == nil)
    #expect(ValueRules.textProblem("Mix.\u{1B}[2J", .paragraphs) == "holds a control character (U+001B) at character 5")
    #expect(ValueRules.textProblem(String(repeating: "x", count: 10_001), .paragraphs) == "has 10001 characters; the limit is 10000")
  }

  @Test func datesMustBeFiniteAndWithinTheCivilRange() {
    #expect(ValueRules.dateProblem(Date(timeIntervalSince1970: 1_700_000_000)) == nil)
    #expect(ValueRules.dateProblem(Date(timeIntervalSince1970: .nan)) == "is not a finite date")
    #expect(ValueRules.dateProblem(Date(timeIntervalSince1970: .infinity)) == "is not a finite date")
    #expect(ValueRules.dateProblem(Date(timeIntervalSince1970: 1e12)) == "is outside the years 1900–9999")
    #expect(ValueRules.dateProblem(.distantPast) == "is outside the years 1900–9999")
  }

  @Test func fieldValuesKeepTheirFieldsTypeAndBounds() throws {
    let schema = Category.schema
    let sortOrder = try #require(schema.field(named: "sortOrder"))
    #expect(ValueRules.problem(.integer(5), for: sortOrder) == nil)
    #expect(ValueRules.problem(.integer(1_000_001), for: sortOrder) == "1000001 is outside 0…1000000")
    #expect(ValueRules.problem(.text("5"), for: sortOrder) == "has the wrong type for integer (text)")
    let grams = try #require(IngredientTemplate.schema.field(named: "gramsPerCup"))
    #expect(ValueRules.problem(.real(240), for: grams) == nil)
    #expect(ValueRules.problem(.real(.nan), for: grams) == "is not a finite number")
    #expect(ValueRules.problem(.real(-.infinity), for: grams) == "is not a finite number")
    #expect(ValueRules.problem(.real(5_000), for: grams) == "5000.0 is outside 0.0…1000.0")
    let name = try #require(schema.field(named: "displayName"))
    #expect(ValueRules.problem(.null, for: name) == "is required")
    let steps = try #require(Recipe.schema.field(named: "recipeInstructions"))
    #expect(ValueRules.problem(.textList(["Boil.\nDrain."]), for: steps) == nil)
    #expect(ValueRules.problem(.textList(Array(repeating: "x", count: 2_001)), for: steps) == "has 2001 items; the limit is 2000")
    #expect(ValueRules.problem(.textList(["ok", "bad\u{0}"]), for: steps) == "item 2 holds a control character (U+0000) at character 4")
    let meal = try #require(PlannedMeal.schema.field(named: "mealType"))
    #expect(ValueRules.problem(.text("brunch"), for: meal) == "'brunch' is not one of breakfast, lunch, dinner, snack")
    let lastUsed = try #require(Recipe.schema.field(named: "lastUsed"))
    #expect(ValueRules.problem(.timestamp(Date(timeIntervalSince1970: .nan)), for: lastUsed) == "is not a finite date")
  }
}
