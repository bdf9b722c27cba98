import Foundation
import Model
import Repositories
import Scripting
import Testing

@testable import CommandLanguage

/// settings units, category move/order, --grams-per-cup and scaling, from the command language.
@Suite("Shopping commands")
struct ShoppingCommandTests {
  private func harness() throws -> Harness {
    let harness = try Harness()
    try harness.run(
      """
      category add Produce
      category add Dairy
      ingredient add milk --category Dairy
      ingredient add garlic --category Produce
      recipe add Soup --yield "4 bowls" --ingredient "2 cups milk" --ingredient "3 cloves garlic" --ingredient "salt to taste"
      list new Week --week 2024-W50
      """)
    return harness
  }

  @Test func theUnitsSettingChangesHowListsReadUntilChangedBack() throws {
    let harness = try harness()
    try harness.run("list add-recipe Soup to Week\nlist add 1 l milk to Week")
    #expect(try harness.text("settings units") == "units: as-written")
    #expect(try harness.text("list show Week").contains("6 ¼ cups"))
    try harness.run("settings units metric")
    #expect(try harness.text("list show Week").contains("1.47 l"))
    // --units wins over the setting for one command.
    #expect(try harness.text("list show Week --units us").contains("6 ¼ cups"))
    try harness.run("settings units as-written")
    #expect(try harness.text("list show Week").contains("6 ¼ cups"))
    try harness.expectFailure("settings units imperial", .usage, mentions: ["'imperial' is not one of metric, us, as-written"])
  }

  @Test func aislesFollowCategoryMovesAndOrders() throws {
    let harness = try harness()
    try harness.run("list add-recipe Soup to Week")
    func aisles() throws -> [String?] { try harness.json("list show Week").rows("items").map { $0.string("aisle") } }
    #expect(try aisles() == ["Produce", "Dairy", nil])
    try harness.run("category move Dairy --before Produce")
    #expect(try aisles() == ["Dairy", "Produce", nil])
    try harness.run("category order Produce Dairy")
    #expect(try aisles() == ["Produce", "Dairy", nil])
    try harness.expectFailure("category move Dairy", .usage, mentions: ["--before"])
    try harness.expectFailure("category move Dairy --before Nowhere", .failed, mentions: ["no category named 'Nowhere'"])
    try harness.expectFailure("category order Dairy dairy", .failed, mentions: ["'Dairy' is named twice"])
  }

  @Test func scalingByServingsAndFactorFromTheCommandLanguage() throws {
    let harness = try harness()
    let lines = try harness.json("recipe show Soup --servings 8").rows("ingredients")
    #expect(lines.map { $0["quantity"] } == [.int(4), .int(6), .null])
    try harness.run("list add-recipe Soup --scale 1.5 to Week")
    #expect(try harness.json("list items Week").rows("items").map { $0.string("quantity") } == ["3 cup", "4.5 clove", nil])
    try harness.expectFailure("recipe show Soup --servings 8 --scale 2", .usage, mentions: ["either --servings or --scale"])
    try harness.expectFailure("list add-recipe Soup --servings 0 to Week", .usage, mentions: ["--servings: '0' is out of range"])
    try harness.expectFailure("recipe show Soup --scale 1e9", .usage, mentions: ["'1e9' is not a number"])
    #expect(try harness.json("list items Week").rows("items").count == 3)
  }

  @Test func gramsPerCupIsSetShownAndBounded() throws {
    let harness = try harness()
    try harness.run("ingredient set milk --grams-per-cup 242.5")
    #expect(try harness.json("ingredient show milk")["ingredient"]?["gramsPerCup"] == .double(242.5))
    try harness.expectFailure(
      "ingredient set milk --grams-per-cup 0", .usage, mentions: ["--grams-per-cup", "'0' is out of range", "above 0 and at most 1,000"])
    try harness.expectFailure("ingredient set milk --grams-per-cup lots", .usage, mentions: ["'lots' is not a number"])
    #expect(try harness.json("ingredient show milk")["ingredient"]?["gramsPerCup"] == .double(242.5))
  }
}

/// pantry, recipe suggest and recipe cooked, from the command language.
@Suite("Pantry commands")
struct PantryCommandTests {
  @Test func pantryItemsAreSkippedAndSuggestionsRankByWhatIsMissing() throws {
    let harness = try Harness()
    try harness.run(
      """
      ingredient add salt --staple yes
      recipe add Omelette --ingredient "3 eggs" --ingredient "pinch of salt"
      recipe add Pancakes --ingredient "2 cups flour" --ingredient "2 eggs" --ingredient "1 cup milk"
      list new Week --week 2024-W50
      pantry add eggs flour
      """)
    #expect(try harness.json("pantry list").rows("pantry").map { $0.string("name") } == ["egg", "flour"])
    let added = try harness.json("list add-recipe Pancakes to Week")
    #expect(added["skipped"] == ["flour", "egg"])
    #expect(try harness.json("list items Week").rows("items").map { $0.string("name") } == ["milk"])
    try harness.run("list add-recipe Omelette --all to Week")
    #expect(try harness.json("list items Week").rows("items").count == 3)

    let suggestions = try harness.json("recipe suggest").rows("suggestions")
    #expect(suggestions.map { $0.string("name") } == ["Omelette", "Pancakes"])
    #expect(suggestions.map { $0["missing"] } == [[], ["milk"]])
    try harness.run("pantry remove eggs")
    try harness.run("pantry add milk")
    try harness.run("recipe cooked Pancakes")
    // One missing each: the cooked one first.
    #expect(try harness.json("recipe suggest --limit 1").rows("suggestions").map { $0.string("name") } == ["Pancakes"])
    try harness.expectFailure("pantry remove eggs", .failed, mentions: ["'egg' is not in the pantry"])
    try harness.expectFailure("recipe suggest --limit 0", .usage, mentions: ["--limit"])
    try harness.expectFailure("recipe cooked Waffles", .failed, mentions: ["Waffles"])
  }

  /// The amounts typed in the reported cases, refused naming the value (Repositories'
  /// TypedAmountTests generate the signs and words).
  @Test func signedAndWordAmountsAreRefusedNamingTheValue() throws {
    let harness = try Harness()
    try harness.run("list new Week --week 2024-W50")
    for amount in ["a handful", "a pinch"] {
      try harness.expectFailure(
        "pantry set rice \(amount)", .failed, mentions: ["pantry set: amount '\(amount)': does not start with a number"])
    }
    for item in ["-2 eggs", "\u{2212}4 pears"] {
      try harness.expectFailure(
        "list add \(Lexer.quote(item)) to Week", .failed,
        mentions: ["list add: item '\(item)': the amount must be a number above 0", "without a sign"])
    }
    try harness.expectFailure("list add milk --quantity \u{2013}1 to Week", .failed, mentions: ["quantity '\u{2013}1'", "without a sign"])
    try harness.run("pantry set rice 2 cups\nlist add 2 eggs to Week")
    #expect(try harness.text("pantry list").contains("2 cups"))
  }
}
