import Foundation
import Model
import Repositories
import Scripting
import TestSupport
import Testing

/// recipe import and recipe export, through the command language.
@Suite struct RecipeImportCommandTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/recipe-import")

  static func fixture(_ name: String) -> String { "\"" + fixtures.appendingPathComponent(name).path + "\"" }

  /// A fresh folder for files a test writes.
  static func temporaryFolder() throws -> URL {
    let folder = try TemporaryDirectory.make().appendingPathComponent("import")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The result's messages, one text.
  static func messages(_ json: JSONValue) -> String {
    guard case .array(let messages)? = json["messages"] else { return "" }
    return messages.compactMap { message -> String? in
      if case .string(let text) = message { return text }
      return nil
    }.joined(separator: "\n")
  }

  static func results(_ json: JSONValue) -> [String] {
    json.rows("files").map { "\($0.string("recipe") ?? "-"): \($0.string("result") ?? "")" }
  }

  @Test func aPageImportsWithItsIngredientsStepsTimesAndYield() throws {
    let harness = try Harness()
    let json = try harness.json("recipe import \(Self.fixture("yoast-graph.html"))")
    #expect(Self.results(json) == ["Weeknight Shakshuka: imported"])
    let shown = try harness.json("recipe show Weeknight Shakshuka")
    let recipe = try #require(shown["recipe"])
    #expect(recipe.string("yield") == "4 servings")
    #expect(recipe.string("totalTime") == "PT40M")
    #expect(recipe.string("author") == "Ada Baker, Ben Cook")
    #expect(recipe.string("datePublished") == "2024-03-05")
    #expect(recipe.string("url") == "https://small-kitchen.example/recipes/weeknight-shakshuka/")
    #expect(
      recipe["steps"]
        == .array([
          "Make the sauce:", "1. Warm the oil and soften the pepper for 5 minutes.",
          "2. Add the garlic and cumin, then the tomatoes; simmer 15 minutes.", "Cook the eggs:",
          "3. Make 6 wells and crack in the eggs.", "4. Cover and cook 8–10 minutes.", "5. Scatter with feta & serve.",
        ]))
    let lines = shown.rows("ingredients")
    #expect(lines.count == 8)
    #expect(lines[6].string("ingredient") == "feta")
    #expect(lines[6]["quantity"] == .double(0.5))
    #expect(try harness.count(.ingredientTemplate) == 7, "olive oil twice is one template")
    let messages = Self.messages(json)
    #expect(lines.map { $0.string("group") } == Array(repeating: "For the sauce", count: 5) + Array(repeating: "To finish", count: 3))
    #expect(!messages.contains("heading"))
    #expect(messages.contains("1 file, 1 recipe imported, 0 failed"))
  }

  @Test func importingTheSameFileTwiceCreatesNothingTwice() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("item-list.jsonld"))")
    let before = try harness.counts()
    let json = try harness.json("recipe import \(Self.fixture("item-list.jsonld"))")
    #expect(Self.results(json) == ["Cucumber Salad: similar to existing", "Tomato Salad: similar to existing"])
    #expect(try harness.counts() == before)
    let anyway = try harness.json("recipe import \(Self.fixture("item-list.jsonld")) --anyway")
    #expect(Self.results(anyway) == ["Cucumber Salad: imported", "Tomato Salad: imported"])
    #expect(try harness.count(.recipe) == 4)
  }

  @Test func mergeFoldsTheImportIntoTheExistingRecipe() throws {
    let harness = try Harness()
    try harness.run(#"recipe add "Overnight Oats" --ingredient "1 cup oats""#)
    let json = try harness.json("recipe import \(Self.fixture("plain-recipe.json")) --merge")
    #expect(Self.results(json) == ["Overnight Oats: merged"])
    #expect(try harness.count(.recipe) == 1)
    let recipe = try #require(try harness.json("recipe show Overnight Oats")["recipe"])
    #expect(recipe.string("yield") == "Makes 2 jars", "an empty field is filled")
    #expect(try harness.json("recipe show Overnight Oats").rows("ingredients").count == 1, "the existing lines stay")
  }

  @Test func oneBadFileNeverStopsTheRest() throws {
    let harness = try Harness()
    let files = ["broken.json", "binary.jpg", "not-a-page.txt", "no-recipe.html", "plain-recipe.json", "missing.html"]
    let json = try harness.json("recipe import " + files.map(Self.fixture).joined(separator: " "))
    let rows = json.rows("files")
    #expect(rows.map { $0.string("result") } == ["failed", "failed", "failed", "failed", "imported", "failed"])
    let details = rows.map { $0.string("detail") ?? "" }
    for (detail, reason) in zip(
      details, ["broken JSON", "binary data", "not a saved page", "no schema.org Recipe", "5 ingredient lines", "no such file"])
    {
      #expect(detail.contains(reason), "\(detail)")
    }
    #expect(try harness.count(.recipe) == 1)
  }

  @Test func aFileOverTenMegabytesIsRefusedBeforeItIsRead() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let big = folder.appendingPathComponent("huge.html")
    _ = FileManager.default.createFile(atPath: big.path, contents: nil)
    let handle = try FileHandle(forWritingTo: big)
    try handle.truncate(atOffset: 50 * 1024 * 1024)
    try handle.close()
    let harness = try Harness()
    let error = try #require(harness.error("recipe import \"\(big.path)\""), "a run that imported no file fails")
    let json = try #require(error.result).json(command: "recipe import")
    #expect(json.rows("files").first?.string("detail") == "the file is 50 MB; files over 10 MB are not read")
  }

  @Test func atomicKeepsNothingWhenAFileFails() throws {
    let harness = try Harness()
    try harness.expectFailure(
      "recipe import \(Self.fixture("plain-recipe.json")) \(Self.fixture("broken.json")) --atomic", .failed,
      mentions: ["nothing was imported (--atomic)", "broken.json: broken JSON"])
    try harness.run("recipe import \(Self.fixture("plain-recipe.json")) \(Self.fixture("item-list.jsonld")) --atomic")
    #expect(try harness.count(.recipe) == 3)
  }

  @Test func dryRunShowsWhatWouldBeImportedAndChangesNothing() throws {
    let harness = try Harness()
    let before = try harness.counts()
    let json = try harness.json("recipe import \(Self.fixture("item-list.jsonld")) --dry-run")
    #expect(Self.results(json) == ["Cucumber Salad: would import", "Tomato Salad: would import"])
    #expect(try harness.counts() == before)
    #expect(Self.messages(json).contains("dry run: nothing changed"))
  }

  @Test func aFolderImportsItsPagesInNameOrder() throws {
    let harness = try Harness()
    let json = try harness.json("recipe import \"\(Self.fixtures.path)\"")
    #expect(
      Self.results(json).filter { $0.hasSuffix("imported") } == [
        "Cucumber Salad: imported", "Tomato Salad: imported", "Red Lentil Dal: imported", "Chewy Oatmeal Cookies: imported",
        "Cinnamon Buns: imported", "Grandma's Brown Bread: imported", "Overnight Oats: imported", "Green Pea Soup: imported",
        "Weeknight Shakshuka: imported",
      ], "the microdata and RDFa pages too")
    #expect(json.rows("files").count { $0.string("result") == "failed" } == 2, "broken.json and no-recipe.html")
  }

  @Test func anIngredientLineTheStoreWouldRefuseIsLeftOutWithAWarning() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("odd.json")
    try Data(#"{"@type": "Recipe", "name": "Odd", "recipeIngredient": ["2 cups", "9999999 kg flour", "1 egg"]}"#.utf8).write(to: file)
    let harness = try Harness()
    let json = try harness.json("recipe import \"\(file.path)\"")
    #expect(Self.results(json) == ["Odd: imported"])
    #expect(try harness.count(.recipeIngredient) == 1)
    let messages = Self.messages(json)
    #expect(messages.contains("ingredient line 1 '2 cups' left out: no ingredient name"))
    #expect(messages.contains("ingredient line 2 '9999999 kg flour' left out: the amount must be"))
  }

  @Test func exportNeedsNamesOrAllAndAKnownFormat() throws {
    let harness = try Harness()
    try harness.expectFailure("recipe export", .usage, mentions: ["missing; give NAME or --all"])
    try harness.expectFailure("recipe export Nothing", .failed, mentions: ["Nothing"])
    #expect(harness.error("recipe export --all --format csv")?.kind == .usage)
  }

  /// Every sample recipe, exported and imported into a fresh store, comes back the same.
  @Test func everySampleRecipeRoundTripsThroughJSONLD() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("all.jsonld")
    let source = try Harness()
    try source.run("seed sample")
    try source.run("recipe export --all --format jsonld --output \"\(file.path)\"")
    let target = try Harness()
    let imported = try target.json("recipe import \"\(file.path)\"")
    let names = try source.session.library.recipes.all().map(\.displayName)
    #expect(names.count >= 5)
    #expect(Self.results(imported) == names.map { "\($0): imported" })
    let compared = [
      "name", "titleKey", "description", "cuisine", "category", "yield", "prepTime", "cookTime", "totalTime", "author",
      "datePublished", "url", "keywords", "steps",
    ]
    for name in names {
      let before = try source.json("recipe show \"\(name)\""), after = try target.json("recipe show \"\(name)\"")
      for key in compared { #expect(before["recipe"]?[key] == after["recipe"]?[key], "\(name): \(key)") }
      // Lines as written and as read; the templates they resolve to are the store's own
      // (the sample store's carry display names and aliases a fresh store does not have).
      let lines = { (json: JSONValue) in json.rows("ingredients").map { [$0["line"], $0["quantity"], $0["unit"], $0["notes"]] } }
      #expect(lines(before) == lines(after), "\(name): ingredient lines")
    }
  }
}
