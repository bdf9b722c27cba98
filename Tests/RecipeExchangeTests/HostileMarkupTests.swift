import Foundation
import Testing

@testable import RecipeExchange

/// Pages built to make the microdata and RDFa readers spend: each stays within its bound,
/// counted as spent, and says which bound stopped it.
@Suite struct HostileMarkupTests {
  static let recipeOpen = #"<html><body><div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Hostile Cake</h1>"#

  @Test func deeplyNestedItemsStopAtTheDepthBound() throws {
    let nested = String(
      repeating: #"<div itemprop="author" itemscope itemtype="http://schema.org/Person"><b itemprop="name">Ann</b>"#, count: 5_000)
    let page = Self.recipeOpen + nested + "</body></html>"
    let reading = try RecipeReader().read(Data(page.utf8))
    #expect(reading.recipes.map(\.name) == ["Hostile Cake"])
    #expect(reading.recipes.first?.author == "Ann")
    #expect(reading.warnings == ["microdata items nested deeper than 64 were left out"])
  }

  @Test func deeplyNestedRDFaItemsStopAtTheDepthBound() throws {
    let nested = String(repeating: #"<div property="author" typeof="Person"><b property="name">Ann</b>"#, count: 5_000)
    let page = #"<html><body vocab="http://schema.org/"><div typeof="Recipe"><h1 property="name">Hostile Cake</h1>"# + nested
    let reading = try RecipeReader().read(Data(page.utf8))
    #expect(reading.recipes.map(\.name) == ["Hostile Cake"])
    #expect(reading.warnings == ["RDFa items nested deeper than 64 were left out"])
  }

  @Test func aHugeCountOfPropertiesStopsAtTheElementBound() throws {
    let page = Self.recipeOpen + String(repeating: "<i itemprop=recipeIngredient>1 egg</i>", count: 120_000)
    let found = PageMarkup.recipes(in: page, limits: ReadLimits())
    #expect(found.elements == PageMarkup.Budget.maximumElements)
    let reading = try RecipeReader().read(Data(page.utf8))
    #expect(reading.recipes.first?.ingredients.count == PageMarkup.Budget.maximumElements - 4, "all but html, body, div and h1")
    #expect(reading.warnings == ["the page has more than 100000 elements; markup after them was not read"])
  }

  @Test func unclosedNestedPropertiesStopAtTheTextBound() throws {
    // Each unclosed element's markup runs to the end of the page: read naively, the
    // copies would come to 20,000 × 300 KB.
    let page = Self.recipeOpen + String(repeating: #"<div itemprop="description">Rich. "#, count: 20_000)
    let limits = ReadLimits(maximumBytes: 1024 * 1024)
    let found = PageMarkup.recipes(in: page, limits: limits)
    #expect(found.characters <= limits.maximumBytes)
    #expect(found.characters > limits.maximumBytes - page.utf8.count, "the budget is spent, not refused early")
    let reading = try RecipeReader(limits: limits).read(Data(page.utf8))
    #expect(reading.recipes.first?.description?.hasPrefix("Rich. Rich.") == true)
    #expect(reading.warnings == ["property texts passed 1048576 characters in all; the rest were left out"])
  }

  @Test func anAttributeListingThousandsOfNamesIsReadForItsFirst32() throws {
    let names = (1...100_000).map { "x\($0)" }.joined(separator: " ")
    let page =
      #"<html><body><div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="\#(names) name">Cake</h1>"#
      + #"<meta itemprop="x1 x2 name" content="Tart"></div>"#
    let recipe = try #require(try RecipeReader().read(Data(page.utf8)).recipes.first)
    #expect(recipe.name == "Tart", "the h1's 100,001st name is not read")
    #expect(PageMarkup.tokens(names).count == 32)
  }

  @Test func itemrefCyclesEndAndSaySo() throws {
    let page = """
      <html><body>
      <div id="r" itemscope itemtype="http://schema.org/Recipe" itemprop="subjectOf" itemref="a r b b"><h1 itemprop="name">Loop Cake</h1></div>
      <div id="a" itemprop="author" itemscope itemtype="http://schema.org/Person" itemref="r a b"><span itemprop="name">Ann</span></div>
      <div id="b" itemprop="recipeIngredient">2 eggs<span id="c" itemref="b"></span></div>
      </body></html>
      """
    let reading = try RecipeReader().read(Data(page.utf8))
    let recipe = try #require(reading.recipes.first)
    #expect(reading.recipes.count == 1)
    #expect(recipe.name == "Loop Cake")
    #expect(recipe.author == "Ann")
    #expect(recipe.ingredients == ["2 eggs"], "an element met twice counts once")
    #expect(reading.warnings == ["a microdata item that holds itself through itemref was left out (a cycle)"])
  }

  @Test func manyItemsSharingOneLargeElementStopAtTheVisitBound() throws {
    // 300 items × 5,001 shared elements: 1.5 million visits, past the bound.
    let shared =
      #"<div id="big">"# + String(repeating: "<i itemprop=recipeIngredient>1 egg</i>", count: 10)
      + String(repeating: "<i>-</i>", count: 4_990)
      + "</div>"
    let items = (0..<300).map {
      #"<div itemscope itemtype="http://schema.org/Recipe" itemref="big"><b itemprop="name">Cake \#($0)</b></div>"#
    }
    let page = "<html><body>" + shared + items.joined() + "</body></html>"
    let found = PageMarkup.recipes(in: page, limits: ReadLimits())
    #expect(found.visits == PageMarkup.Budget.maximumVisits)
    #expect(found.objects.count == 300)
    let reading = try RecipeReader().read(Data(page.utf8))
    #expect(reading.recipes.first?.ingredients.count == 10)
    #expect(reading.warnings.contains("items' properties were searched through 1000000 elements; the rest was not read"))
  }

  @Test func aPageOverTheElementBoundWithNoRecipeInThePartReadSaysSo() {
    let page = "<html><body>" + String(repeating: "<b>", count: 100_000) + Self.recipeOpen
    #expect(throws: RecipeReadError.tooMuchMarkup("the page has more than 100000 elements; markup after them was not read")) {
      try RecipeReader().read(Data(page.utf8))
    }
    #expect(
      RecipeReadError.tooMuchMarkup("the page has more than 100000 elements; markup after them was not read").description
        == "no schema.org Recipe found in the part of the page read: the page has more than 100000 elements; markup after them was not read"
    )
  }

  @Test func endTagsAndImpliedEndsDeepInsideOpenElements() {
    // 40,000 open elements, then end tags that close nothing (a look-up each, not a search
    // of every open element) and list items whose end tags are implied.
    let page = String(repeating: "<span>", count: 40_000) + String(repeating: "</em><dd><td>", count: 20_000)
    let tree = HTMLTagScanner.tree(page, keeping: [], maximumElements: 100_000)
    #expect(tree.elements.count == 80_000)
    #expect(tree.elements[40_001].parent == 40_000, "a td inside the dd")
    #expect(tree.elements[40_002].parent == 39_999, "the next dd closes the open dd and the td in it")
    #expect(tree.elements[0].subtreeEnd == 80_000, "what is open at the end ends there")
  }
}
