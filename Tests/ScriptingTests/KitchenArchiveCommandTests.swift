import CommandLanguage
import Foundation
import Model
import Repositories
import Scripting
import TestSupport
import Testing

/// export kitchen and import kitchen, through the command language.
@Suite struct KitchenArchiveCommandTests {
  /// A kitchen typed as a user would: the sample library, a store with an order, the
  /// pantry with an amount, a planned week and a list shopped at the store.
  static let kitchenScript = """
    seed sample
    tag add Weeknight
    store add Costco
    store order Costco Dairy Produce
    pantry set flour 500 g
    mealplan add "Holiday week" --week 2024-W52
    meal plan 2024-12-13 dinner Egg Fried Rice --servings 4
    list new Groceries --week 2024-W50
    list add milk --quantity "1 l" to Groceries
    list store Groceries Costco
    list check milk on Groceries
    """

  static func file(_ name: String) throws -> String {
    try TemporaryDirectory.make().appendingPathComponent(name).path
  }

  @Test func exportThenImportIntoAnEmptyStoreThenExportGivesTheSameFile() throws {
    let source = try Harness()
    try source.run(Self.kitchenScript)
    let first = try Self.file("kitchen.json"), second = try Self.file("again.json")
    let exported = try source.json("export kitchen \"\(first)\"")
    #expect(exported["records"]?["recipes"] == .int(8))
    let restored = try Harness()
    let imported = try restored.json("import kitchen \"\(first)\"")
    #expect(imported["changed"] == .bool(true))
    try restored.run("export kitchen \"\(second)\"")
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    #expect(try restored.counts() == source.counts())
    #expect(try restored.text("store show Costco").contains("Dairy"))
  }

  @Test func aSecondImportSaysNothingChanged() throws {
    let source = try Harness()
    try source.run(Self.kitchenScript)
    let path = try Self.file("kitchen.json")
    try source.run("export kitchen \"\(path)\"")
    let kitchen = try Harness()
    try kitchen.run("category add PRODUCE\nimport kitchen \"\(path)\"")
    let again = try kitchen.json("import kitchen \"\(path)\"")
    #expect(again["changed"] == .bool(false))
    let messages = RecipeImportCommandTests.messages(again)
    #expect(messages.contains("0 created, 0 updated"))
    #expect(messages.contains("nothing changed"))
    let categories = again.rows("kinds").first { $0.string("kind") == "categories" }
    #expect(categories?["unchanged"] != nil && categories?["created"] == .int(0))
    #expect(try kitchen.count(.category) == source.count(.category))
  }

  @Test func aDryRunShowsTheCountsAndChangesNothing() throws {
    let source = try Harness()
    try source.run(Self.kitchenScript)
    let path = try Self.file("kitchen.json")
    try source.run("export kitchen \"\(path)\"")
    let kitchen = try Harness()
    let text = try kitchen.text("import kitchen \"\(path)\" --dry-run")
    #expect(text.contains("recipes"))
    #expect(text.contains("(dry run: nothing changed)"))
    #expect(try kitchen.counts().values.allSatisfy { $0 == 0 })
  }

  @Test func aBrokenArchiveFailsNamingTheFileAndChangesNothing() throws {
    let source = try Harness()
    try source.run(Self.kitchenScript)
    let path = try Self.file("kitchen.json")
    try source.run("export kitchen \"\(path)\"")
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 7")
    let newer = try Self.file("newer.json")
    try text.write(toFile: newer, atomically: true, encoding: .utf8)
    let kitchen = try Harness()
    try kitchen.run("category add Produce")
    try kitchen.expectFailure("import kitchen \"\(newer)\"", .failed, mentions: ["newer.json", "format version 7", "nothing was imported"])
    let truncated = try Self.file("truncated.json")
    try String(text.prefix(text.count / 3)).write(toFile: truncated, atomically: true, encoding: .utf8)
    try kitchen.expectFailure("import kitchen \"\(truncated)\"", .failed, mentions: ["not valid JSON"])
    try kitchen.expectFailure("import kitchen \"\(try Self.file("missing.json"))\"", .failed, mentions: ["missing.json"])
  }

  @Test func anExportToAFolderThatDoesNotExistFails() throws {
    let kitchen = try Harness()
    try kitchen.expectFailure("export kitchen /nonexistent-folder/kitchen.json", .failed, mentions: ["cannot write"])
  }
}
