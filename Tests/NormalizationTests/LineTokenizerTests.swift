import Normalization
import Testing

/// `LineTokenizer`: what each kind of token is cut from.
@Suite("LineTokenizer")
struct LineTokenizerTests {
  /// A compact picture of the tokens: numbers as their value, words as their key, symbols
  /// as themselves, groups as "(content)".
  static func picture(_ line: String) -> [String] {
    LineTokenizer.tokens(of: line).tokens.map { token in
      switch token.kind {
      case .number(let value): value == value.rounded() ? String(Int(value)) : String(value)
      case .word: token.key
      case .symbol: token.text
      case .group: "(" + token.text + ")"
      }
    }
  }

  @Test func numbersWithAPointOrACommaAndThousands() {
    #expect(Self.picture("0.5 .5 1,5 1,000 1,000,000 12") == ["0.5", "0.5", "1.5", "1000", "1000000", "12"])
  }

  @Test func fractionsPlainSpacedAndUnicode() {
    #expect(Self.picture("3/4") == ["0.75"])
    #expect(Self.picture("2 / 4 cup") == ["0.5", "cup"])
    #expect(Self.picture("½") == ["0.5"])
    #expect(Self.picture("1⁄4") == ["0.25"])
    #expect(Self.picture("1/0") == ["1", "/", "0"])
  }

  @Test func mixedNumbersAfterASpaceOrAHyphen() {
    #expect(Self.picture("1 1/2") == ["1.5"])
    #expect(Self.picture("1 2 / 4") == ["1.5"])
    #expect(Self.picture("1-1/2") == ["1.5"])
    #expect(Self.picture("2½") == ["2.5"])
    #expect(Self.picture("1 3/2") == ["1", "1.5"])  // not a proper fraction: two numbers
  }

  @Test func unitsGluedToNumbersAreWordsOfTheirOwn() {
    #expect(Self.picture("250g 4oz 1.5kg") == ["250", "g", "4", "oz", "1.5", "kg"])
    #expect(Self.picture("2x250ml") == ["2", "x", "250", "ml"])
    #expect(Self.picture("2×400g") == ["2", "x", "400", "g"])
  }

  @Test func wordsKeepInnerHyphensDotsApostrophesAndTrailingDigits() {
    #expect(Self.picture("T-bone Tbsp. fl.oz. baker's v8 crème") == ["t-bone", "tbsp", "floz", "baker's", "v8", "creme"])
    #expect(Self.picture("14-ounce") == ["14", "-", "ounce"])
    #expect(Self.picture("7up 2%") == ["7", "up", "2", "%"])
  }

  @Test func rangesAreNumbersAroundADashOrAWord() {
    #expect(Self.picture("1-2") == ["1", "-", "2"])
    #expect(Self.picture("½–1") == ["0.5", "-", "1"])
    #expect(Self.picture("1-to-2") == ["1", "-", "to", "-", "2"])
  }

  @Test func bracketsAreGroupsNestedOrUnclosed() {
    #expect(Self.picture("1 (14 oz) can") == ["1", "(14 oz)", "can"])
    #expect(Self.picture("a [b (c)] d") == ["a", "(b (c))", "d"])
    #expect(Self.picture("onion (chopped") == ["onion", "(chopped)"])
    #expect(Self.picture("onion) chopped") == ["onion", "chopped"])
  }

  @Test func leadingBulletsBecomeAStarAndOddWhitespaceASpace() {
    #expect(Self.picture("• 3 eggs") == ["*", "3", "eggs"])
    #expect(Self.picture("· 3 cel·la") == ["*", "3", "cel·la"])  // only a leading bullet
    #expect(Self.picture("1\u{00A0}cup\u{2003}milk") == ["1", "cup", "milk"])
  }

  @Test func positionsQuoteTheTokenInThePreparedLine() {
    let (bytes, tokens) = LineTokenizer.tokens(of: "2 (14 oz) cans")
    for token in tokens {
      let text = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
      #expect(token.isGroup ? text == "(" + token.text + ")" : text == token.text)
    }
    #expect(tokens.map(\.spaceBefore) == [true, true, true])
  }
}
