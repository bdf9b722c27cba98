import Foundation
import RecipeExchange
import Testing

/// Pages in the character set they declare, read without mojibake; a page that does
/// not say is read by a fallback that says so.
@Suite struct CharsetTests {
  /// A page whose text is `head` and a JSON-LD script, as bytes: ASCII as written, each
  /// `%XX` one byte of the page's own charset.
  static func page(head: String, name: String, description: String = "A custard.") -> Data {
    let text =
      "<!DOCTYPE html><html><head>\(head)<title>Dessert</title>"
      + #"<script type="application/ld+json">{"@type": "Recipe", "name": "\#(name)", "description": "\#(description)","#
      + #" "recipeIngredient": ["4 egg yolks", "500 ml cream"]}</script></head><body></body></html>"#
    return bytes(text)
  }

  /// ASCII text with `%XX` written as the byte XX.
  static func bytes(_ text: String) -> Data {
    var data = Data(), rest = Substring(text)
    while let percent = rest.firstIndex(of: "%") {
      data += Data(rest[..<percent].utf8)
      let hex = rest[rest.index(after: percent)...].prefix(2)
      data.append(UInt8(hex, radix: 16) ?? 0x3F)
      rest = rest[rest.index(percent, offsetBy: 3)...]
    }
    return data + Data(rest.utf8)
  }

  /// "Crème brûlée" and "Grandma’s" in windows-1252 (the same bytes as Latin-1, but for
  /// the curly apostrophe 0x92, which Latin-1 has as a control character).
  static let cremeBrulee = "Cr%E8me br%FBl%E9e", grandmas = "Grandma%92s custard, 5%80 a bowl."

  @Test(arguments: [
    #"<meta charset="iso-8859-1">"#, "<meta charset=windows-1252>", #"<META CHARSET='ISO-8859-1' />"#,
    #"<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">"#,
    #"<meta content='text/html;charset=Windows-1252' http-equiv='content-type'>"#,
  ])
  func aLatin1PageReadsItsAccentsAsDeclared(head: String) throws {
    let reading = try RecipeReader().read(Self.page(head: head, name: Self.cremeBrulee, description: Self.grandmas))
    let recipe = try #require(reading.recipes.first)
    #expect(recipe.name == "Crème brûlée")
    #expect(recipe.description == "Grandma’s custard, 5€ a bowl.")
    #expect(reading.warnings.isEmpty, "\(reading.warnings)")
  }

  @Test func aWindows1251PageDeclaredByHTTPEquivReadsItsCyrillic() throws {
    let head = #"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#
    let recipe = try #require(try RecipeReader().read(Self.page(head: head, name: "%C1%EE%F0%F9")).recipes.first)
    #expect(recipe.name == "Борщ")
  }

  @Test func aShiftJISPageReadsItsJapanese() throws {
    let recipe = try #require(try RecipeReader().read(Self.page(head: "<meta charset=Shift_JIS>", name: "%93%8C%8B%9E")).recipes.first)
    #expect(recipe.name == "東京")
  }

  /// ISO-2022-JP is 7-bit: its escape bytes made the page look binary, and it is valid
  /// ASCII, so only the declaration tells it apart.
  @Test func anISO2022JPPageIsNotBinaryAndReadsItsJapanese() throws {
    let name = "%1B$BEl5~%1B(B"
    let recipe = try #require(
      try RecipeReader().read(Self.page(head: #"<meta charset="iso-2022-jp">"#, name: "\(name) \(name) \(name)")).recipes.first)
    #expect(recipe.name == "東京 東京 東京")
  }

  @Test func aUTF16PageIsReadRatherThanRefusedAsBinary() throws {
    let text = String(decoding: Self.page(head: #"<meta charset="utf-16">"#, name: "Crème brûlée"), as: UTF8.self)
    for encoding in [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian] {
      let data = try #require(text.data(using: encoding))
      #expect(try RecipeReader().read(data).recipes.first?.name == "Crème brûlée", "\(encoding)")
    }
  }

  @Test func aUTF8PageKeepsUTF8WhateverItDeclares() throws {
    let data = Data(String(decoding: Self.page(head: #"<meta charset="iso-8859-1">"#, name: "Crème brûlée"), as: UTF8.self).utf8)
    let reading = try RecipeReader().read(data)
    #expect(reading.recipes.first?.name == "Crème brûlée", "a browser saved it as UTF-8 and kept the old declaration")
    #expect(reading.warnings.isEmpty)
  }

  @Test func aPageNotInUTF8ThatDeclaresNothingIsReadAsWindows1252WithAWarning() throws {
    let reading = try RecipeReader().read(Self.page(head: "", name: Self.cremeBrulee))
    #expect(reading.recipes.first?.name == "Crème brûlée")
    #expect(
      reading.warnings == [
        "read as windows-1252 because it is not UTF-8 and declares no charset; accented letters may be wrong"
      ])
  }

  @Test func aCharsetForagerCannotReadIsNamedInTheWarning() throws {
    let reading = try RecipeReader().read(Self.page(head: "<meta charset=euc-kr>", name: "%B1%E8%C4%A1"))
    #expect(reading.recipes.count == 1)
    #expect(reading.warnings.first?.contains("it declares charset 'euc-kr', which Forager cannot read") == true, "\(reading.warnings)")
  }

  @Test func aUTF8PageWithAStrayByteStaysUTF8AndSaysSo() throws {
    let reading = try RecipeReader().read(
      Self.page(head: "<meta charset=utf-8>", name: "Cr%C3%A8me br%C3%BBl%C3%A9e", description: "5%A0min"))
    #expect(reading.recipes.first?.name == "Crème brûlée")
    #expect(reading.warnings.first?.hasPrefix("read as UTF-8 with 1 byte that is not UTF-8 replaced") == true, "\(reading.warnings)")
  }

  @Test func aCharsetMentionedOutsideAMetaTagIsNotADeclaration() throws {
    let head = #"<script>var charset = "shift_jis";</script>"#
    let reading = try RecipeReader().read(Self.page(head: head, name: Self.cremeBrulee))
    #expect(reading.recipes.first?.name == "Crème brûlée")
    #expect(reading.warnings.first?.contains("declares no charset") == true)
  }
}
