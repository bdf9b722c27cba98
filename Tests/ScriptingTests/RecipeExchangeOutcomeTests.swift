import Foundation
import Model
import Repositories
import Scripting
import TestSupport
import Testing

@testable import CommandLanguage

/// How recipe import and export end: an import that imported no file fails (a script
/// exits non-zero) with its table of reasons; an export under --json is a JSON document,
/// not a string; sections survive import, show and export.
@Suite struct RecipeExchangeOutcomeTests {
  static func fixture(_ name: String) -> String { RecipeImportCommandTests.fixture(name) }

  final class Capture {
    var output: [String] = []
    var diagnostics: [String] = []
  }

  /// Runs a script as forager-batch does, on a fresh in-memory store.
  static func batch(_ text: String, json: Bool = false) throws -> (ScriptRunner.Status, Capture) {
    let session = try Session(location: "memory", now: { Harness.fixedNow })
    let capture = Capture()
    let runner = ScriptRunner(
      session: session, options: .init(keepGoing: true, json: json), scriptName: "import.forager",
      output: { capture.output.append($0) }, diagnostics: { capture.diagnostics.append($0) })
    return (runner.run(text).status, capture)
  }

  // MARK: Imports that import nothing

  @Test func anImportWhereEveryFileFailedFailsWithItsTable() throws {
    let harness = try Harness()
    let command = "recipe import \(Self.fixture("broken.json")) \(Self.fixture("binary.jpg"))"
    let error = try #require(harness.error(command))
    #expect(error.kind == .failed)
    #expect(error.description == "recipe import: no file was imported: all 2 files failed")
    let result = try #require(error.result).json(command: "recipe import")
    #expect(result.rows("files").map { $0.string("result") } == ["failed", "failed"])
    #expect(RecipeImportCommandTests.messages(result).contains("2 files, 0 recipes imported, 2 failed: no file was imported"))
  }

  @Test func oneFailingFileNamesItsReasonInTheError() throws {
    let harness = try Harness()
    let error = try #require(harness.error("recipe import \(Self.fixture("no-recipe.html"))"))
    #expect(error.description.contains("no file was imported: "))
    #expect(error.description.hasSuffix("no-recipe.html: no schema.org Recipe found in its 1 JSON-LD block"))
  }

  @Test func aFolderWithNoPagesFailsAndSaysSo() throws {
    let folder = try RecipeImportCommandTests.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    let harness = try Harness()
    let error = try #require(harness.error("recipe import \"\(folder.path)\""))
    #expect(error.description.contains("no file to import: \(folder.path) holds no .html, .htm, .json, .jsonld or .paprikarecipes files"))
  }

  @Test func aDryRunThatWouldImportNothingFailsToo() throws {
    let harness = try Harness()
    let error = try #require(harness.error("recipe import \(Self.fixture("broken.json")) --dry-run"))
    #expect(error.description.contains("no file would be imported"))
  }

  @Test func anImportWhoseRecipesAllExistStillSucceeds() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("plain-recipe.json"))")
    let again = try harness.json("recipe import \(Self.fixture("plain-recipe.json"))")
    #expect(RecipeImportCommandTests.results(again) == ["Overnight Oats: similar to existing"])
  }

  @Test func anImportWithOneGoodFileSucceedsAndCountsTheFailures() throws {
    let harness = try Harness()
    let json = try harness.json("recipe import \(Self.fixture("broken.json")) \(Self.fixture("plain-recipe.json"))")
    #expect(RecipeImportCommandTests.messages(json).hasSuffix("2 files, 1 recipe imported, 1 failed"))
  }

  @Test func aScriptWhoseImportImportedNothingEndsAsAFailedCommand() throws {
    let script = "recipe import \(Self.fixture("broken.json"))\nrecipe import \(Self.fixture("plain-recipe.json"))"
    let (status, capture) = try Self.batch(script)
    #expect(status == .commandFailed, "forager-batch exits 1")
    #expect(capture.output.first?.contains("broken JSON") == true, "the table of files is printed: \(capture.output)")
    let diagnostic = try #require(capture.diagnostics.first)
    #expect(diagnostic.hasPrefix("import.forager:1: error: recipe import: no file was imported: "), "\(diagnostic)")
    #expect(diagnostic.contains("broken.json: broken JSON"))
    #expect(capture.output.last?.contains("1 recipe imported") == true, "--keep-going ran the next command")
  }

  @Test func aFailedImportInJSONIsOneObjectWithTheErrorAndTheFiles() throws {
    let (status, capture) = try Self.batch("recipe import \(Self.fixture("broken.json"))", json: true)
    #expect(status == .commandFailed)
    #expect(capture.output.count == 1)
    let line = try #require(capture.output.first)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == false)
    #expect((object["error"] as? [String: Any])?["kind"] as? String == "failed")
    #expect((object["files"] as? [[String: Any]])?.first?["result"] as? String == "failed")
  }

  // MARK: Documents

  @Test func anExportUnderJSONIsTheDocumentItself() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("plain-recipe.json"))")
    let json = try harness.json(#"recipe export "Overnight Oats""#)
    #expect(json["messages"] == nil, "the document is not a message")
    let document = try #require(json["document"])
    #expect(document.string("@type") == "Recipe")
    #expect(document.string("name") == "Overnight Oats")
    #expect(document["recipeIngredient"] == .array(["1 cup rolled oats", "1 cup milk", "1 tbsp honey", "1 tbsp honey", "pinch of salt"]))
  }

  @Test func anExportOnATerminalIsThePrettyDocument() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("item-list.jsonld"))")
    let text = try harness.text("recipe export --all")
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    #expect(parsed.map { $0["name"] as? String } == ["Cucumber Salad", "Tomato Salad"])
    #expect(text.contains("\n  "), "pretty-printed")
  }

  @Test func severalRecipesExportUnderJSONAsAnArray() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("item-list.jsonld"))")
    guard case .array(let recipes)? = try harness.json("recipe export --all")["document"] else {
      Issue.record("the document is not an array")
      return
    }
    #expect(recipes.map { $0.string("name") } == ["Cucumber Salad", "Tomato Salad"])
  }

  // MARK: Sections

  @Test func sectionsOfAnImportedPageExportAsHowToSectionsWithTheirSteps() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("yoast-graph.html"))")
    let document = try #require(try harness.json(#"recipe export "Weeknight Shakshuka""#)["document"])
    let step = { (text: String) -> JSONValue in ["@type": "HowToStep", "text": .string(text)] }
    #expect(
      document["recipeInstructions"]
        == .array([
          [
            "@type": "HowToSection",
            "itemListElement": .array([
              step("Warm the oil and soften the pepper for 5 minutes."),
              step("Add the garlic and cumin, then the tomatoes; simmer 15 minutes."),
            ]),
            "name": "Make the sauce",
          ],
          [
            "@type": "HowToSection",
            "itemListElement": .array([
              step("Make 6 wells and crack in the eggs."), step("Cover and cook 8–10 minutes."), step("Scatter with feta & serve."),
            ]),
            "name": "Cook the eggs",
          ],
        ]))
  }

  @Test func recipeShowPrintsSectionNamesAsHeadingsNotAsSteps() throws {
    let harness = try Harness()
    try harness.run("recipe import \(Self.fixture("yoast-graph.html"))")
    let recipe = try #require(try harness.json("recipe show Weeknight Shakshuka")["recipe"])
    #expect(
      recipe["steps"]
        == .array([
          "Make the sauce:", "1. Warm the oil and soften the pepper for 5 minutes.",
          "2. Add the garlic and cumin, then the tomatoes; simmer 15 minutes.", "Cook the eggs:",
          "3. Make 6 wells and crack in the eggs.", "4. Cover and cook 8–10 minutes.", "5. Scatter with feta & serve.",
        ]))
    let text = try harness.text("recipe show Weeknight Shakshuka")
    #expect(text.contains("Make the sauce:, 1. Warm the oil"), "\(text)")
    #expect(!text.contains("##"))
  }
}
