import Foundation

/// The Unicode steps behind every semantic key.
enum TextFolding {
  /// NFKC, full case folding, diacritics stripped, `LetterFolds` applied, invisible
  /// characters dropped and every whitespace or control character turned into one space.
  /// Not trimmed or collapsed: see `collapsingWhitespace`.
  static func fold(_ text: String) -> String {
    if text.isEmpty { return "" }
    let compatible = text.precomposedStringWithCompatibilityMapping
    let caseFolded = compatible.folding(options: [.caseInsensitive], locale: nil)
    let decomposed = caseFolded.decomposedStringWithCanonicalMapping
    var scalars = String.UnicodeScalarView()
    for scalar in decomposed.unicodeScalars {
      if isCombiningDiacritic(scalar) || isInvisible(scalar) { continue }
      if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
        scalars.append(" ")
      } else if let replacement = LetterFolds.table[scalar] {
        scalars.append(contentsOf: replacement.unicodeScalars)
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars).precomposedStringWithCompatibilityMapping
  }

  /// Trims and collapses runs of spaces (after `fold`, all whitespace is a space).
  static func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// Marks from the combining-diacritics blocks only. Marks of other scripts (Japanese
  /// dakuten, Devanagari vowel signs) carry meaning and are kept.
  private static func isCombiningDiacritic(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
      return true
    default:
      return false
    }
  }

  /// Characters that render as nothing and only make equal-looking names differ.
  private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00AD, 0x200B, 0x2060, 0xFEFF, 0x180E: return true
    default: return false
    }
  }
}
