import Foundation
import Model
import Normalization
import Testing

/// The byte and table paths of the line parser and of name folding against the Unicode
/// paths they stand in for, on seeded text built from the characters each path takes
/// (and some it must hand on).
@Suite("Fast paths")
struct FastPathTests {
  static let pieces: [String] = [
    "a", "Z", "1", " ", "  ", "\t", "\r\n", "\r", "\n", "-", "/", ".", "(", ")", "*", "cup", "T", "½", "⅓", "¾", "⅛", "↉",
    "–", "—", "‐", "‒", "―", "−", "⁄", "∕", "×", "÷", "•", "·", "◦", "‣", "é", "È", "ß", "Æ", "ø", "Ø", "ÿ", "Þ", "ð",
    "ñ", "Ç", "crème", "FRAÎCHE", "jalapeño",
    // Characters the fast paths must leave to the Unicode path.
    "e\u{0301}", "\u{00A0}", "ﬁ", "Ｆ", "œ", "İ", "²", "µ", "\u{200B}", "⅟", "\u{2011}", "がん",
  ]

  static func text(_ generator: inout SeededGenerator) -> String {
    (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
  }

  @Test func preparingWithoutNFKCMatchesPreparingThroughIt() {
    var generator = SeededGenerator(seed: 0x11AE)
    for _ in 0..<3000 {
      let line = Self.text(&generator)
      guard !line.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
      #expect(LineTokenizer.prepared(line) == LineTokenizer.preparedThroughNFKC(line), "\(line.debugDescription)")
    }
  }

  @Test func foldingLatin1ByTableMatchesFoldingThroughFoundation() {
    var generator = SeededGenerator(seed: 0xF01D)
    var texts = (0xC0...0xFF).map { String(Character(Unicode.Scalar(UInt8($0)))) }
    for _ in 0..<3000 { texts.append(Self.text(&generator)) }
    for text in texts {
      let expected = TextFolding.foldUnicode(text).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
      #expect(SemanticKey.normalizedName(text) == expected, "\(text.debugDescription)")
    }
  }
}
