import Scripting
import Testing

@testable import CommandLanguage

@Suite struct LexerTests {
  func words(_ line: String) throws -> [String] { try Lexer.split(line).words.map(\.text) }

  @Test func plainWordsAreSplitOnSpacesAndTabs() throws {
    #expect(try words("recipe  list\t--cuisine Asian") == ["recipe", "list", "--cuisine", "Asian"])
  }

  @Test func doubleQuotesKeepSpacesAndApostrophes() throws {
    #expect(try words(#"recipe add "Mom's Lasagna" --cuisine Italian"#) == ["recipe", "add", "Mom's Lasagna", "--cuisine", "Italian"])
  }

  @Test func singleQuotesAreLiteral() throws {
    #expect(try words(#"category add 'Meat & "Seafood"' x"#) == ["category", "add", #"Meat & "Seafood""#, "x"])
  }

  @Test func backslashEscapesWorkOutsideAndInsideDoubleQuotes() throws {
    #expect(try words(#"a Mom\'s "say \"hi\"" back\\slash "tab\there""#) == ["a", "Mom's", #"say "hi""#, #"back\slash"#, "tab\there"])
  }

  @Test func unicodeNamesSurviveUnchanged() throws {
    #expect(
      try words("ingredient add crème fraîche 🍋 \"J. Kenji López-Alt\"") == [
        "ingredient", "add", "crème", "fraîche", "🍋", "J. Kenji López-Alt",
      ])
  }

  @Test func hashStartsACommentOnlyAtAWordStart() throws {
    #expect(try words("category add C#  # a comment") == ["category", "add", "C#"])
    #expect(try words("# only a comment").isEmpty)
    #expect(try words("tag add \"#1\"") == ["tag", "add", "#1"])
  }

  @Test func quotedWordsAreMarkedQuoted() throws {
    let line = try Lexer.split(#"x "--json" to 'to'"#)
    #expect(line.words.map(\.quoted) == [false, true, false, true])
  }

  @Test func aTrailingBackslashContinuesTheLine() throws {
    let line = try Lexer.split(#"recipe add Soup \"#)
    #expect(line.continues)
    #expect(line.words.map(\.text) == ["recipe", "add", "Soup"])
  }

  @Test func anUnterminatedDoubleQuoteIsASyntaxErrorWithItsColumn() {
    #expect(throws: Lexer.Failure(column: 14, reason: "unterminated double quote (opened at column 14)")) {
      try Lexer.split(#"category add "Produce"#)
    }
  }

  @Test func anUnterminatedSingleQuoteIsASyntaxError() {
    #expect(throws: Lexer.Failure.self) { try Lexer.split("tag add 'weeknight") }
  }

  @Test(arguments: ["Produce", "Egg Fried Rice", "Mom's Lasagna", #"a "b" \c"#, "--json", "#1", ""])
  func quotingReadsBackAsOneWord(_ text: String) throws {
    #expect(try Lexer.split("x " + Lexer.quote(text)).words.map(\.text) == ["x", text])
  }
}
