import Model
import Normalization
import Testing

/// ASCII lines (without carriage returns) are scanned byte by byte; every other line
/// Character by Character. Both scanners must give the same parse of an ASCII line.
@Suite("ASCII line parsing")
struct ASCIILineParsingTests {
  static let asciiTableLines: [String] = IngredientLineTests.all.map(\.line).filter { line in
    line.utf8.allSatisfy { $0 < 0x80 }
  }

  @Test func tableLinesParseTheSameByBytesAndByCharacters() {
    #expect(Self.asciiTableLines.count > 50)
    for line in Self.asciiTableLines {
      #expect(IngredientLine.parse(line) == IngredientLine.parseCharacters(line), "\(line.debugDescription)")
    }
  }

  /// ASCII pieces the scanner treats specially: digits, separators, brackets, every ASCII
  /// whitespace, units, note words, a stray carriage return.
  static let pieces: [String] = [
    "1", "2", "0", "9", "/", ".", ",", ";", "-", " ", "  ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\r\n",
    "(", ")", "[", "]", "cup", "cups", "T", "t", "tbsp", "Tbsp.", "g", "kg", "fl", "oz", "of", "to", "or", "a",
    "an", "two", "x", "large", "heaping", "diced", "finely", "chopped", "and", "to taste", "optional",
    "tomatoes", "leaves", "cloves", "garlic", "can", "14-ounce", "'", "&", "|", "%", "~", "*", "_", "about",
    "1,5", "1,000", ".5", "1-1/2", "\u{1F}", "\u{7F}", "7up", "T-bone",
  ]

  @Test(arguments: [UInt64(1), 7, 42, 2024, 0xBEEF])
  func randomASCIILinesParseTheSameByBytesAndByCharacters(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<400 {
      let count = Int.random(in: 0...10, using: &generator)
      let line = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
      #expect(IngredientLine.parse(line) == IngredientLine.parseCharacters(line), "seed \(seed): \(line.debugDescription)")
    }
  }
}
