import CommandLanguage
import Model
import Scripting
import Testing

@Suite struct ExpectCommandTests {
  @Test func countComparesWithAnOperator() throws {
    let harness = try Harness()
    try harness.run("seed defaults")
    #expect(try harness.text("expect count categories 7") == "ok: 7 categories")
    try harness.run("expect count category >= 7\nexpect count categories < 8\nexpect count recipes != 1")
    try harness.expectFailure("expect count categories 8", .expectation, mentions: ["expect count", "expected 8 categories, found 7"])
    try harness.expectFailure("expect count categories > 7", .expectation, mentions: ["expected > 7 categories"])
    // Found when the script is read, before anything runs.
    try harness.expectFailure("expect count categories ~ 7", .usage, mentions: ["expected: '~' is neither a count", "nor a comparison"])
    try harness.expectFailure("expect count categories seven", .usage, mentions: ["'seven' is neither a count"])
    try harness.expectFailure("expect count categories -1", .usage, mentions: ["'-1' is neither a count"])
    try harness.expectFailure("expect count categories = 7 8", .failed, mentions: ["give a number or a comparison"])
  }

  @Test func existsAndMissingUseTheSemanticKey() throws {
    let harness = try Harness()
    try harness.run("ingredient add \"spring onion\"\nrecipe add Soup\nmeal plan 2024-12-13 dinner Soup")
    try harness.run("expect exists ingredient scallions\nexpect exists meal 2024-12-13 dinner\nexpect missing recipe Stew")
    try harness.expectFailure("expect exists recipe Stew", .expectation, mentions: ["expected recipe 'Stew' to exist"])
    try harness.expectFailure("expect missing recipe soup", .expectation, mentions: ["expected no recipe 'soup', found 'Soup'"])
    try harness.expectFailure("expect exists meal tomorrow", .failed, mentions: ["by date and meal type"])
    try harness.expectFailure("expect exists item milk", .failed, mentions: ["have no names of their own"])
  }

  @Test func fieldComparesReferencesByNameAndListsAsText() throws {
    let harness = try Harness()
    try harness.run("seed sample")
    try harness.run(
      """
      expect field recipe "Egg Fried Rice" cuisine Asian
      expect field recipe "Egg Fried Rice" book The Wok
      expect field recipe "Egg Fried Rice" page 89
      expect field ingredient scallion name Spring onion
      expect field ingredient "spring onion" category Produce
      expect field category Produce sort 0
      expect field recipe "Egg Fried Rice" url ""
      """)
    try harness.expectFailure(
      "expect field recipe \"Egg Fried Rice\" cuisine Thai", .expectation,
      mentions: ["expected recipe 'Egg Fried Rice' recipeCuisine to be 'Thai', found 'Asian'"])
    try harness.expectFailure(
      "expect field recipe \"Egg Fried Rice\" colour red", .failed, mentions: ["field: recipes have no field 'colour'"])
    try harness.expectFailure("expect field recipe Nope cuisine Thai", .expectation, mentions: ["to exist"])
  }

  @Test func duplicatesCountsGroups() throws {
    let harness = try Harness()
    try harness.run("recipe add Soup\nrecipe add soup --anyway")
    try harness.run("expect duplicates 1")
    try harness.expectFailure("expect duplicates 0", .expectation, mentions: ["found 1: recipe 'soup' ×2"])
  }

  @Test func failsHoldsWhenTheCommandFailsAndChangesNothing() throws {
    let harness = try Harness()
    try harness.run("category add Produce\ncategory add Dairy")
    #expect(try harness.text("expect fails category rename Produce to Dairy").hasPrefix("ok: failed as expected: category rename"))
    try harness.run("expect fails recipe add X --page -3")
    try harness.expectFailure("expect fails category add Frozen", .expectation, mentions: ["to fail, but it succeeded"])
    try harness.expectFailure("expect fails frobnicate", .failed, mentions: ["not valid", "unknown command"])
    // Arguments refused as the command is read are a failure of a known command.
    #expect(try harness.text("expect fails list add-plan Groceries").hasPrefix("ok: failed as expected: list add-plan: --week: missing"))
    #expect(try harness.text("expect fails recipe show X --servings 0").contains("'0' is out of range"))
    try harness.expectFailure("expect fails recipe shw X", .failed, mentions: ["not valid", "unknown subcommand"])
  }
}

@Suite struct ExplainCommandTests {
  @Test func keyShowsTheKeyPerKindAndWhatTheStoreHas() throws {
    let harness = try Harness()
    try harness.run("ingredient add tomato")
    let rows = try harness.json("explain key Tomatoes").rows("keys")
    #expect(rows.map { $0.string("kind") } == ["category", "tag", "ingredient", "book", "recipe"])
    let ingredient = try #require(rows.first { $0.string("kind") == "ingredient" })
    #expect(ingredient.string("key") == "tomato")
    #expect(ingredient.string("existing") == "tomato")
    #expect(try harness.json("explain key \"Mom's Lasagna\" --as recipe").rows("keys").first?.string("key") == "moms lasagna")
    try harness.expectFailure("explain key x --as item", .failed, mentions: ["have no semantic key"])
    // A list's key is its week and name.
    try harness.expectFailure("explain key x --as list", .failed, mentions: ["give a week and a name, e.g. 2024-W50 Weekly"])
    try harness.run("list new Weekly --week 2024-W50")
    let list = try #require(try harness.json("explain key 2024-12-12 WEEKLY --as list").rows("keys").first)
    #expect(list.string("key") == "2024-W50|weekly")
    #expect(list.string("existing") == "Weekly")
  }

  @Test func weekGivesTheISOWeek() throws {
    #expect(
      try Harness().text("explain week 2024-12-30").hasPrefix("2024-12-30 is in week 2025-W01, Monday 2024-12-30 to Sunday 2025-01-05"))
    #expect(try Harness().json("explain week 2021-01-03")["week"]?.string("monday") == "2020-12-28")
    #expect(try Harness().json("explain week 2020-W53")["week"]?.string("sunday") == "2021-01-03")
    #expect(try Harness().json("explain week 2026-w47")["week"]?.string("week") == "2026-W47")
  }

  @Test func lineShowsHowAnIngredientLineIsRead() throws {
    let json = try Harness().json("explain line 2 ½ cups diced tomatoes (about 3) --json")
    let line = try #require(json["line"])
    #expect(line["quantity"] == .double(2.5))
    #expect(line.string("unit") == "cup")
    #expect(line.string("canonicalName") == "tomato")
    #expect(line.string("notes") == "diced; about 3")
  }
}
