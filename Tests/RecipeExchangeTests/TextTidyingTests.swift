import Foundation
import RecipeExchange
import Testing

/// Entities, tags and whitespace in the texts of a recipe, through the reader.
@Suite struct TextTidyingTests {
  static func ingredient(_ line: String) throws -> String? {
    let escaped = line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
    let json = Data(#"{"@type": "Recipe", "name": "T", "recipeIngredient": ["\#(escaped)"]}"#.utf8)
    return try RecipeReader().read(json).recipes.first?.ingredients.first
  }

  @Test(arguments: [
    ("&frac12; cup sugar", "½ cup sugar"), ("&#189; cup sugar", "½ cup sugar"), ("&#xBD; cup sugar", "½ cup sugar"),
    ("1 cup cr&egrave;me fra&icirc;che", "1 cup crème fraîche"), ("salt &amp;amp; pepper", "salt & pepper"),
    ("<b>2</b> eggs", "2 eggs"), ("&lt;i&gt;1&lt;/i&gt; lemon", "1 lemon"), ("2\u{00A0}cups\u{2009}flour", "2 cups flour"),
    ("  3   eggs \n beaten ", "3 eggs beaten"), ("1 &bogus; thing", "1 &bogus; thing"), ("cook < 5 min & serve", "cook < 5 min & serve"),
    ("&#189 cup sugar", "½ cup sugar"), ("10&#150;12 walnuts", "10–12 walnuts"), ("&#x92;s", "’s"), ("&#0; egg", "&#0; egg"),
    ("soft\u{00AD}ened butter", "softened butter"), ("the 4<sup>th</sup> egg", "the 4th egg"), ("1 egg<!-- a comment -->", "1 egg"),
  ])
  func textIsDecodedStrippedAndTidied(raw: String, tidy: String) throws {
    #expect(try Self.ingredient(raw) == tidy)
  }

  @Test func attributesInAnyOrderAndQuotingAreRead() throws {
    let page = #"""
      <html><head>
      <script id=ld type = application/ld+json>{"@type":"Recipe","name":"One"}</script>
      <script src="app.js" type="text/javascript">var x = "<script type='application/ld+json'>";</script>
      <script
        data-x='1' TYPE='Application/LD+JSON'>{"@type":"Recipe","name":"Two"}</script>
      </head></html>
      """#
    #expect(try RecipeReader().read(Data(page.utf8)).recipes.map(\.name) == ["One", "Two"])
  }

  @Test func aLatin1PageIsRead() throws {
    var bytes = Array(#"<html><script type="application/ld+json">{"@type":"Recipe","name":"Cr"#.utf8)
    bytes += [0xE8]  // è in Latin-1
    bytes += Array(#"me Caramel"}</script></html>"#.utf8)
    #expect(try RecipeReader().read(Data(bytes)).recipes.first?.name == "Crème Caramel")
  }
}
