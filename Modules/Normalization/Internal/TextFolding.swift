import Foundation

/// The Unicode steps behind every semantic key.
package enum TextFolding {
  /// NFKC, full case folding, diacritics stripped, `LetterFolds` applied, invisible
  /// characters dropped and every whitespace or control character turned into one space.
  /// Not trimmed or collapsed: see `collapsingWhitespace`.
  static func fold(_ text: String) -> String {
    if text.isEmpty { return "" }
    if let ascii = foldASCII(text) { return ascii }
    if let latin = foldLatin1(text) { return latin }
    return foldUnicode(text)
  }

  /// `fold` through Foundation's Unicode passes, for any text.
  package static func foldUnicode(_ text: String) -> String {
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

  /// `fold` for text that is all ASCII, which most names are, without Foundation's
  /// Unicode passes: there NFKC and canonical decomposition change nothing, case folding
  /// lowercases A–Z, no character is a diacritic, invisible or in `LetterFolds`, and the
  /// whitespace and control characters (0x00–0x20, 0x7F) become spaces. Nil otherwise.
  private static func foldASCII(_ text: String) -> String? {
    let utf8 = text.utf8
    guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
      var count = 0
      for byte in utf8 {
        switch byte {
        case 0x41...0x5A: buffer[count] = byte + 0x20
        case 0x00...0x20, 0x7F: buffer[count] = 0x20
        default: buffer[count] = byte
        }
        count += 1
      }
      return count
    }
  }

  /// `fold` for text of ASCII and the Latin-1 letters U+00C0–U+00FF (crème, jalapeño,
  /// Straße), which most non-ASCII names are, by a table: none of those letters changes
  /// under NFKC or combines with its neighbours, so folding the text folds each character
  /// on its own, and `latin1Folds` holds each letter's `foldUnicode`. Nil otherwise.
  private static func foldLatin1(_ text: String) -> String? {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        switch value {
        case 0x41...0x5A: result.unicodeScalars.append(Unicode.Scalar(UInt8(value + 0x20)))
        case 0x00...0x20, 0x7F: result.unicodeScalars.append(" ")
        default: result.unicodeScalars.append(scalar)
        }
      } else if value >= 0xC0, value <= 0xFF {
        result += latin1Folds[Int(value - 0xC0)]
      } else {
        return nil
      }
    }
    return result
  }

  /// `foldUnicode` of each letter U+00C0–U+00FF, in order.
  private static let latin1Folds: [String] = (0xC0...0xFF).map { value in
    foldUnicode(String(Character(Unicode.Scalar(UInt8(value)))))
  }

  /// Trims and collapses runs of spaces (after `fold`, all whitespace is a space).
  static func collapsingWhitespace(_ text: String) -> String {
    if let ascii = collapsingASCII(text, separators: asciiWhitespace) { return ascii }
    return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// For each ASCII byte, whether it is a whitespace `Character`: read from
  /// `Character.isWhitespace` itself, so the byte paths below cannot disagree with it.
  package static let asciiWhitespace: [Bool] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))).isWhitespace }

  /// `split(whereSeparator:)` then `joined(separator: " ")` for all-ASCII text, byte by
  /// byte, with `separators` saying which bytes separate: in ASCII every byte is one
  /// character, except CR LF, whose bytes are both whitespace. Nil for any other text.
  /// Splitting by `Character` costs a grapheme-break and property lookup per character,
  /// several microseconds per name.
  package static func collapsingASCII(_ text: String, separators: [Bool]) -> String? {
    var text = text
    return text.withUTF8 { bytes -> String? in
      guard !bytes.isEmpty else { return "" }
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      return String(unsafeUninitializedCapacity: bytes.count) { buffer in
        var count = 0
        var pendingSpace = false
        for byte in bytes {
          if separators[Int(byte)] {
            pendingSpace = count > 0
            continue
          }
          if pendingSpace {
            buffer[count] = UInt8(ascii: " ")
            count += 1
            pendingSpace = false
          }
          buffer[count] = byte
          count += 1
        }
        return count
      }
    }
  }

  /// `split(whereSeparator: { $0.isWhitespace })` for all-ASCII text, as strings; nil
  /// for any other text.
  static func wordsOfASCII(_ text: String) -> [String]? {
    var text = text
    return text.withUTF8 { bytes -> [String]? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      var words: [String] = []
      var start: Int?
      for index in 0...bytes.count {
        if index < bytes.count, !asciiWhitespace[Int(bytes[index])] {
          if start == nil { start = index }
        } else if let first = start {
          words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self))
          start = nil
        }
      }
      return words
    }
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
