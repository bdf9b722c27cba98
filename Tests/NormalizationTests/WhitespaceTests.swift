import Foundation
import Normalization
import Testing

/// `Whitespace.trimmed` against Foundation's `trimmingCharacters(in:)`, its oracle: every
/// scalar of the Basic Multilingual Plane and some beyond, at either end or both, and the
/// texts that stress the fast path and the scalar walk.
struct WhitespaceTests {
  static func foundation(_ text: String, newlines: Bool) -> String {
    text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
  }

  @Test func everyScalarAtTheEndsIsTrimmedAsFoundationTrimsIt() {
    var mismatches: [String] = []
    let scalars = (0...0xFFFF).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0x1F34E)!, Unicode.Scalar(0xE0020)!]
    for scalar in scalars {
      let c = String(Character(scalar))
      for text in ["\(c)x\(c)", "\(c)\(c)é", "ab\(c)", c] {
        for newlines in [true, false] where Whitespace.trimmed(text, newlines: newlines) != Self.foundation(text, newlines: newlines) {
          mismatches.append("U+\(String(scalar.value, radix: 16)) in \(text.debugDescription), newlines \(newlines)")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
  }

  @Test func textsOfEveryShapeAreTrimmedAsFoundationTrimsThem() {
    let texts = [
      "", " ", "\n", "\t \u{00A0}\u{3000}", "Produce", " Produce", "Produce ", "  Crème  Fraîche \n",
      "\u{0301}accent", " \u{0301}accent", "x\u{0301} ", "\r\n\r\nlunch\r\n", "\u{2028}a\u{2029}", "\u{85}b\u{85}",
      "e\u{301}\u{00A0}", "🍎 ", " 🍎", "\u{200B}zero width\u{200B}", "a\u{1680}", "\u{FEFF}bom",
    ]
    for text in texts {
      for newlines in [true, false] {
        #expect(
          Whitespace.trimmed(text, newlines: newlines) == Self.foundation(text, newlines: newlines),
          "\(text.debugDescription), newlines \(newlines)")
      }
    }
    #expect(Whitespace.trimmed(" lunch "[...]) == "lunch")
  }
}
