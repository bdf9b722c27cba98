import Foundation
import Model
import Scripting
import Testing

/// `recipe add --group` and the block form's heading lines set a recipe's ingredient
/// groups; `recipe show` shows each heading once, before its lines.
@Suite struct IngredientGroupCommandTests {
  static func groups(_ harness: Harness, _ name: String) throws -> [String?] {
    try harness.json("recipe show \(name)").rows("ingredients").map { $0.string("group") }
  }

  @Test func groupAppliesToTheIngredientsAfterIt() throws {
    let harness = try Harness()
    try harness.run(
      #"recipe add Dumplings --ingredient "1 tsp salt" --group Dough --ingredient "2 cups flour" --ingredient "1 egg" --group "Dipping sauce:" --ingredient "3 tbsp soy sauce""#
    )
    #expect(try Self.groups(harness, "Dumplings") == [nil, "Dough", "Dough", "Dipping sauce"])
    let shown = try harness.text("recipe show Dumplings")
    #expect(shown.contains("GROUP"), "\(shown)")
    #expect(shown.components(separatedBy: "Dough").count == 2, "the heading is shown once: \(shown)")
    #expect(shown.components(separatedBy: "Dipping sauce").count == 2, "\(shown)")
  }

  @Test func aHeadingLineInTheBlockStartsAGroup() throws {
    let harness = try Harness()
    try harness.run("recipe add Tacos:\n  8 tortillas\n  For the filling:\n  500 g beef\n  1 onion\nsteps:\n  Fry.\n  Serve:\nend")
    #expect(try Self.groups(harness, "Tacos") == [nil, "For the filling", "For the filling"])
    let steps = try harness.json("recipe show Tacos")["recipe"]?["steps"]
    #expect(steps == .array(["1. Fry.", "2. Serve:"]), "a step ending in ':' stays a step")
  }

  @Test func aRecipeWithoutGroupsShowsNoGroupColumn() throws {
    let harness = try Harness()
    try harness.run(#"recipe add Toast --ingredient "2 slices bread""#)
    #expect(try !harness.text("recipe show Toast").contains("GROUP"))
  }

  @Test func aGroupLongerThanANameIsRefusedAndNothingIsWritten() throws {
    let harness = try Harness()
    let long = String(repeating: "sauce ", count: 40)
    try harness.expectFailure(
      "recipe add Soup --ingredient \"1 carrot\" --group \"\(long)\" --ingredient \"1 onion\"", .failed,
      mentions: ["group of ingredient line 2"])
  }

  @Test func exportsWriteTheGroupsAndAnImportKeepsThem() throws {
    let harness = try Harness()
    try harness.run(#"recipe add Dumplings --ingredient "1 tsp salt" --group Dough --ingredient "2 cups flour""#)
    let document = try harness.json("recipe export Dumplings")["document"]
    #expect(document?["recipeIngredient"] == .array(["1 tsp salt", "Dough:", "2 cups flour"]))
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let paprika = directory.appendingPathComponent("out.paprikarecipes").path
    try harness.run("recipe export Dumplings --paprika \(paprika)")
    let other = try Harness()
    try other.run("recipe import \(paprika)")
    #expect(try Self.groups(other, "Dumplings") == [nil, "Dough"])
  }
}
