import Foundation
import RecipeExchange
import Testing

/// Attribute values are read as a browser reads them: the same value written any way HTML
/// allows — each character literal or as a named, decimal or hex character reference (a
/// numeric one with or without its `;`), in double quotes, single quotes or none, the name
/// in any letter case — says the same.
@Suite struct AttributeDecodingTests {
  /// A small deterministic generator (SplitMix64): the same cases on every run.
  struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
    mutating func coin() -> Bool { below(2) == 0 }
  }

  /// The names HTML gives the characters these values hold.
  static let names: [Character: [String]] = [
    "/": ["sol"], "+": ["plus"], ":": ["colon"], ".": ["period"], "&": ["amp", "AMP"], "-": [], "_": ["lowbar", "UnderBar"],
  ]

  /// One character as written in an attribute value: literal, or a character reference.
  static func encode(_ character: Character, quote: String, _ random: inout Generator) -> String {
    let scalar = character.unicodeScalars.first!.value
    let mustEncode = character == "&" || (quote.isEmpty && " \"'=<>`".contains(character)) || String(character) == quote
    switch random.below(mustEncode ? 3 : 4) {
    case 0: return "&#" + String(repeating: "0", count: random.below(3)) + String(scalar) + ";"
    case 1:
      let hex = String(scalar, radix: 16)
      return "&#" + (random.coin() ? "x" : "X") + String(repeating: "0", count: random.below(3))
        + (random.coin() ? hex.uppercased() : hex) + ";"
    case 2: return names[character].flatMap { $0.isEmpty ? nil : "&" + random.pick($0) + ";" } ?? "&#\(scalar);"
    default: return String(character)
    }
  }

  /// `name=value` written one of the ways HTML allows, the name's letters in any case.
  static func attribute(_ name: String, _ value: String, _ random: inout Generator) -> String {
    let quote = random.pick(["\"", "'", ""])
    let spelled = String(name.map { random.coin() ? Character($0.uppercased()) : $0 })
    var pieces = value.map { encode($0, quote: quote, &random) }
    // A numeric reference's `;` may be left out where the next character cannot be read as
    // one of its digits or as that `;`.
    for index in pieces.indices where pieces[index].hasPrefix("&#") && random.coin() {
      let isHex = pieces[index].dropFirst(2).first.map { $0 == "x" || $0 == "X" } ?? false
      let next = index + 1 < pieces.count ? pieces[index + 1].first : nil
      if let next, next == ";" || (isHex ? next.isHexDigit : next.isNumber) { continue }
      pieces[index].removeLast()
    }
    let encoded = pieces.joined()
    return spelled + random.pick(["", " ", "\n"]) + "=" + random.pick(["", " ", "\t"]) + quote + encoded + quote
  }

  /// Other attributes a tag carries around the one that matters.
  static func noise(_ random: inout Generator) -> String {
    random.pick(["", " async", " class='x y'", " data-id=7", " id=\"a\"", " nonce=\"r&amp;nd\"", " data-x.y=\"1\""])
  }

  @Test func anyEncodingOfTheJSONLDTypeIsJSONLD() throws {
    var random = Generator(state: 2026)
    for number in 0..<400 {
      let tag = random.pick(["script", "SCRIPT", "Script"])
      let type = Self.attribute("type", random.coin() ? "application/ld+json" : "application/ld+json; charset=utf-8", &random)
      let page =
        "<html><head><\(tag)\(Self.noise(&random)) \(type)\(Self.noise(&random))>{\"@type\": \"Recipe\", \"name\": \"Case \(number)\"}</\(tag)></head></html>"
      let reading = try? RecipeReader().read(Data(page.utf8))
      #expect(reading?.recipes.map(\.name) == ["Case \(number)"], "\(page)")
    }
  }

  @Test func anyEncodingOfMicrodataAttributesReadsTheSame() throws {
    var random = Generator(state: 1912)
    for number in 0..<300 {
      let scope = random.pick(["itemscope", "ITEMSCOPE", "itemscope=\"\"", "itemscope='itemscope'"])
      let type = Self.attribute("itemtype", random.pick(["http://schema.org/Recipe", "https://schema.org/Recipe"]), &random)
      let name = Self.attribute("itemprop", "name", &random)
      let time = Self.attribute("datetime", "PT1H30M", &random)
      let image = Self.attribute("src", "https://pics.example/a_b-c.jpg", &random)
      let page = """
        <html><body><div\(Self.noise(&random)) \(scope) \(type)><h1 \(name)>Case \(number)</h1>
        <time itemprop=prepTime \(time)>ninety minutes</time><img itemprop="image" \(image)></div></body></html>
        """
      let recipe = try? RecipeReader().read(Data(page.utf8)).recipes.first
      #expect(recipe?.name == "Case \(number)", "\(page)")
      #expect(recipe?.prepTime == "PT1H30M", "\(page)")
      #expect(recipe?.image == "https://pics.example/a_b-c.jpg", "\(page)")
    }
  }

  @Test func aReferenceInTheTypeThatDecodesToAnotherTypeIsNotJSONLD() throws {
    let block = #"{"@type": "Recipe", "name": "Not JSON-LD"}"#
    #expect(throws: RecipeReadError.noRecipe(blocks: 0)) {
      try RecipeReader().read(Data("<html><script type=\"application&#47;json\">\(block)</script></html>".utf8))
    }
    let page = "<html><script type=\"application&#x2F;ld&#x2B;json\">\(block)</script></html>"
    #expect(try RecipeReader().read(Data(page.utf8)).recipes.map(\.name) == ["Not JSON-LD"])
  }
}
