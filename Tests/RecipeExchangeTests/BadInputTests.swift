import Foundation
import RecipeExchange
import Testing

/// Every kind of bad file gets its own clear error.
@Suite struct BadInputTests {
  @Test(arguments: [
    ("broken.json", "broken JSON"), ("no-recipe.html", "no schema.org Recipe found in its 1 JSON-LD block"),
    ("not-a-page.txt", "not a saved page (HTML) or a JSON-LD file"), ("binary.jpg", "binary data"),
  ])
  func aBadFileIsRefusedWithItsReason(name: String, reason: String) throws {
    do {
      let reading = try Fixtures.read(name)
      Issue.record("\(name) gave \(reading.recipes.map(\.name))")
    } catch {
      #expect(String(describing: error).contains(reason), "\(error)")
    }
  }

  @Test func aFileOverTheSizeLimitIsNotRead() {
    let reader = RecipeReader(limits: ReadLimits(maximumBytes: 1024 * 1024))
    let data = Data(repeating: UInt8(ascii: " "), count: 1024 * 1024 + 1)
    #expect(throws: RecipeReadError.tooLarge(bytes: 1024 * 1024 + 1, maximum: 1024 * 1024)) { try reader.read(data) }
    #expect(
      RecipeReadError.tooLarge(bytes: 50 * 1024 * 1024, maximum: 10 * 1024 * 1024).description
        == "the file is 50 MB; files over 10 MB are not read")
  }

  @Test func aPageWithoutJSONLDSaysSo() {
    #expect(throws: RecipeReadError.noRecipe(blocks: 0)) { try RecipeReader().read(Data("<html><body>Hi</body></html>".utf8)) }
  }

  @Test func aPageWhoseOnlyBlockIsBrokenIsBrokenJSON() {
    let page = Data(#"<html><script type="application/ld+json">{"@type": "Recipe", </script></html>"#.utf8)
    #expect {
      try RecipeReader().read(page)
    } throws: { error in
      guard case .brokenJSON = error as? RecipeReadError else { return false }
      return true
    }
  }

  @Test func binaryJunkWithoutNulBytesIsBinary() {
    let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }.map { $0 == 0 ? 1 : $0 })
    #expect(throws: RecipeReadError.binary) { try RecipeReader().read(junk) }
  }

  /// A page as the recipe corpus holds it: `"` before `<!DOCTYPE html>`; browsers read on.
  @Test func aStrayCharacterBeforeTheDoctypeStillReadsAsAPage() throws {
    let page = Data(("\"<!DOCTYPE html><html><head>" + Self.toastBlock + "</head></html>").utf8)
    #expect(try RecipeReader().read(page).recipes.map(\.name) == ["Toast"])
    let prose = Data(("A note about toast. " + String(repeating: "More words. ", count: 30) + "<html>").utf8)
    #expect(throws: RecipeReadError.notPageOrJSON) { try RecipeReader().read(prose) }
  }

  /// A run of NUL bytes inside the HTML past the first 8 KB is removed with a warning;
  /// NULs in the first 8 KB, or in more than 1 % of the file, still mean binary data.
  @Test func strayNulBytesLaterInAPageAreRemovedWithAWarning() throws {
    let filler = "<!-- " + String(repeating: "x", count: 9000) + " -->"
    let page =
      Data(("<html><head>" + filler).utf8) + Data(repeating: 0, count: 31)
      + Data(("</head><body>" + Self.toastBlock + "</body></html>").utf8)
    let reading = try RecipeReader().read(page)
    #expect(reading.recipes.map(\.name) == ["Toast"])
    #expect(reading.warnings.contains { $0.contains("31 NUL bytes removed") }, "\(reading.warnings)")

    let early = Data("<html>".utf8) + Data([0]) + Data(("<head>" + Self.toastBlock + filler + "</head></html>").utf8)
    #expect(throws: RecipeReadError.binary) { try RecipeReader().read(early) }
    let many = Data(("<html><head>" + filler).utf8) + Data(repeating: 0, count: 200) + Data(Self.toastBlock.utf8)
    #expect(throws: RecipeReadError.binary) { try RecipeReader().read(many) }
  }

  private static let toastBlock = #"<script type="application/ld+json">{"@type": "Recipe", "name": "Toast"}</script>"#

  @Test func aRecipeWithoutANameIsSkippedWithAWarning() throws {
    let json = Data(#"[{"@type": "Recipe", "recipeIngredient": ["1 egg"]}, {"@type": "Recipe", "name": "Toast"}]"#.utf8)
    let reading = try RecipeReader().read(json)
    #expect(reading.recipes.map(\.name) == ["Toast"])
    #expect(reading.warnings == ["a Recipe without a name was skipped"])
  }

  @Test func overlongTextsAreCutWithAWarning() throws {
    let long = String(repeating: "word ", count: 30)
    let json = Data(#"{"@type": "Recipe", "name": "\#(long)", "description": "\#(long)", "recipeIngredient": ["\#(long)"]}"#.utf8)
    let recipe = try #require(RecipeReader(limits: ReadLimits(shortText: 20, description: 50, ingredientLine: 40)).read(json).recipes.first)
    #expect(recipe.name.count <= 20)
    #expect(recipe.description.map { $0.count <= 50 } == true)
    #expect(recipe.ingredients.first.map { $0.count <= 40 } == true)
    #expect(recipe.warnings.count == 3, "\(recipe.warnings)")
  }
}
