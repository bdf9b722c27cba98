import Foundation

/// Cuts a prepared ingredient line into `LineToken`s: numbers (decimals with a point or a
/// comma, thousands, fractions, mixed numbers), words, symbols and bracketed groups.
///
/// The line is read as UTF-8 bytes. Everything the grammar tests for (digits, the
/// separators, brackets, spaces, the letters of units and number words) is ASCII once the
/// line is prepared, and a non-ASCII character never splits a word, so one byte scan
/// serves every line.
///
/// ```swift
/// LineTokenizer.tokens(of: "2x250ml stock") // 2, "x", 250, "ml", "stock"
/// LineTokenizer.tokens(of: "1 2 / 3 cups")  // 1.666…, "cups"
/// ```
package enum LineTokenizer {
  /// The prepared line and its tokens.
  package static func tokens(of line: String) -> (bytes: [UInt8], tokens: [LineToken]) {
    let bytes = Array(prepared(line).utf8)
    var tokens = scan(bytes)
    joinFractions(&tokens)
    return (bytes, tokens)
  }

  /// Vulgar fractions spelled out with spaces around them ("1½" → "1 1/2 "), NFKC
  /// (full-width digits, "⁄"), fraction slashes as "/", every dash as "-", "×" as " x ",
  /// any other whitespace as a space, and a leading bullet ("•", "·", "◦", "‣") as "*".
  /// Case is kept: "T" and "t" are different units. ASCII lines are returned as they are
  /// (none of these characters is ASCII, and NFKC leaves ASCII text alone).
  package static func prepared(_ line: String) -> String {
    if line.utf8.allSatisfy({ $0 < 0x80 }) { return line }
    return preparedWithoutNFKC(line) ?? preparedThroughNFKC(line)
  }

  /// `prepared` for any non-ASCII line, through Foundation's NFKC.
  package static func preparedThroughNFKC(_ line: String) -> String {
    var expanded = ""
    for character in line {
      if let fraction = UnicodeFractions.table[character] {
        expanded += " \(fraction.numerator)/\(fraction.denominator) "
      } else {
        expanded.append(character)
      }
    }
    var result = ""
    var leading = true
    for character in expanded.precomposedStringWithCompatibilityMapping {
      switch character {
      case "\u{2044}", "\u{2215}": result.append("/")
      case "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}": result.append("-")
      case "×": result.append(" x ")
      case "•", "·", "◦", "‣": result.append(leading ? "*" : character)
      default: result.append(character.isWhitespace ? " " : character)
      }
      if !character.isWhitespace { leading = false }
    }
    return result
  }

  /// `prepared` for a line whose non-ASCII characters are all vulgar fractions, the
  /// Latin-1 letters U+00C0–U+00FF, "×", "÷", the dashes, the fraction and division
  /// slashes or the bullets, which most non-ASCII lines are: NFKC changes none of those
  /// (nor the ASCII around them), so one pass over the scalars does the rest. Nil for any
  /// other line.
  private static func preparedWithoutNFKC(_ line: String) -> String? {
    var result = ""
    result.reserveCapacity(line.utf8.count + 8)
    var leading = true
    var afterCR = false
    for scalar in line.unicodeScalars {
      let value = scalar.value
      if value < 0x80, space[Int(value)] {
        // Every whitespace character is one space; "\r\n" is one character.
        if !(afterCR && value == 0x0A) { result.append(" ") }
        afterCR = value == 0x0D
        continue
      }
      afterCR = false
      if value < 0x80 || (value >= 0xC0 && value <= 0xFF && value != 0xD7) {
        result.unicodeScalars.append(scalar)
      } else if let fraction = fractionsByScalar[value] {
        result += " \(fraction.numerator)/\(fraction.denominator) "
      } else {
        switch value {
        case 0x2044, 0x2215: result.append("/")
        case 0x2010...0x2015, 0x2212: result.append("-")
        case 0xD7: result.append(" x ")
        case 0x2022, 0xB7, 0x25E6, 0x2023: result.unicodeScalars.append(leading ? "*" : scalar)
        default: return nil
        }
      }
      leading = false
    }
    return result
  }

  /// `UnicodeFractions.table` by scalar.
  private static let fractionsByScalar: [UInt32: (numerator: Int, denominator: Int)] = {
    var table: [UInt32: (numerator: Int, denominator: Int)] = [:]
    for (character, fraction) in UnicodeFractions.table {
      if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 { table[scalar.value] = fraction }
    }
    return table
  }()

  // MARK: - Scanning

  private static let space = TextFolding.asciiWhitespace

  @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool { byte < 0x80 && space[Int(byte)] }
  @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  /// A letter for the scanner: ASCII letters, the apostrophe, and every byte of a
  /// non-ASCII character (non-ASCII whitespace is a space after preparation).
  @inline(__always) private static func isLetter(_ byte: UInt8) -> Bool {
    byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x27
  }

  private static func scan(_ bytes: [UInt8]) -> [LineToken] {
    var tokens: [LineToken] = []
    tokens.reserveCapacity(12)
    var index = 0
    var spaceBefore = true
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if isSpace(byte) {
        spaceBefore = true
        index += 1
        continue
      }
      let start = index
      if isDigit(byte) || (byte == 0x2E && index + 1 < count && isDigit(bytes[index + 1])) {
        let (value, isInteger, end) = number(bytes, at: index)
        var token = LineToken(
          kind: .number(value), text: text(bytes, start, end), key: "", start: start, end: end, spaceBefore: spaceBefore)
        token.isInteger = isInteger
        tokens.append(token)
        index = end
      } else if isLetter(byte) {
        let end = wordEnd(bytes, from: index)
        let raw = text(bytes, start, end)
        var token = LineToken(kind: .word, text: raw, key: key(bytes, start, end, raw), start: start, end: end, spaceBefore: spaceBefore)
        let entry = LineWords.entry(key: token.key, text: raw)
        token.classes = entry.classes
        token.unitIndex = entry.unit
        tokens.append(token)
        index = end
      } else if byte == 0x28 || byte == 0x5B {  // ( [
        let (contentEnd, end) = groupEnd(bytes, from: index)
        tokens.append(
          LineToken(kind: .group, text: text(bytes, start + 1, contentEnd), key: "", start: start, end: end, spaceBefore: spaceBefore))
        index = end
      } else if byte == 0x29 || byte == 0x5D {  // a stray ) or ] reads as a space
        spaceBefore = true
        index += 1
        continue
      } else {
        tokens.append(
          LineToken(
            kind: .symbol(byte), text: text(bytes, start, start + 1), key: "", start: start, end: start + 1, spaceBefore: spaceBefore))
        index += 1
      }
      spaceBefore = false
    }
    return tokens
  }

  /// "2", "1.5", ".5", "1,5" (a decimal comma), "1,000" and "1,000,000" (groups of three),
  /// "1,000.5". Digits only from 0x30…0x39.
  private static func number(_ bytes: [UInt8], at start: Int) -> (Double, Bool, Int) {
    var index = start
    var value = 0.0
    while index < bytes.count, isDigit(bytes[index]) {
      value = value * 10 + Double(bytes[index] - 0x30)
      index += 1
    }
    var isInteger = true
    // Thousands: a comma and exactly three digits, not followed by a fourth.
    while index > start, index + 3 < bytes.count, bytes[index] == 0x2C,
      bytes[(index + 1)..<(index + 4)].allSatisfy(isDigit),
      index + 4 == bytes.count || !isDigit(bytes[index + 4])
    {
      for byte in bytes[(index + 1)..<(index + 4)] { value = value * 10 + Double(byte - 0x30) }
      index += 4
    }
    if index + 1 < bytes.count, bytes[index] == 0x2E || (bytes[index] == 0x2C && index > start),
      isDigit(bytes[index + 1])
    {
      index += 1
      var scale = 1.0
      var decimals = 0.0
      while index < bytes.count, isDigit(bytes[index]) {
        decimals = decimals * 10 + Double(bytes[index] - 0x30)
        scale *= 10
        index += 1
      }
      value += decimals / scale
      isInteger = false
    }
    return (value.isNaN ? .infinity : value, isInteger, index)
  }

  /// The end of the word starting at `start`.
  private static func wordEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start + 1
    while index < bytes.count {
      let byte = bytes[index]
      if isLetter(byte) || byte == 0x2E {
        index += 1
      } else if byte == 0x2D, index + 1 < bytes.count, isLetter(bytes[index + 1]), isLetter(bytes[index - 1]) {
        index += 1  // "t-bone", "bone-in", "twenty-five"
      } else if isDigit(byte), !(index == start + 1 && bytes[start] | 0x20 == 0x78) {
        index += 1  // "v8", "b12"; but "x250" is a multiplier and a number
      } else {
        break
      }
    }
    return index
  }

  /// The end of the group's content and of the group: the matching bracket (either kind
  /// closes either kind, as nesting is all that counts), or the end of the line.
  private static func groupEnd(_ bytes: [UInt8], from start: Int) -> (Int, Int) {
    var depth = 0
    for index in start..<bytes.count {
      switch bytes[index] {
      case 0x28, 0x5B: depth += 1
      case 0x29, 0x5D:
        depth -= 1
        if depth == 0 { return (index, index + 1) }
      default: break
      }
    }
    return (bytes.count, bytes.count)
  }

  private static func text(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
    guard start < end else { return "" }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Lowercase without dots; `normalizedName` for non-ASCII words.
  private static func key(_ bytes: [UInt8], _ start: Int, _ end: Int, _ raw: String) -> String {
    let slice = bytes[start..<end]
    guard slice.allSatisfy({ $0 < 0x80 }) else { return SemanticKey.normalizedName(raw).filter { $0 != "." } }
    return String(unsafeUninitializedCapacity: slice.count) { buffer in
      var count = 0
      for byte in slice where byte != 0x2E {
        buffer[count] = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
        count += 1
      }
      return count
    }
  }

  // MARK: - Fractions and mixed numbers

  /// Joins "3 / 4" and "3/4" (two whole numbers around a slash, the second not 0) into one
  /// fraction, then a whole number and a proper fraction after a space ("1 1/2", "2 ½")
  /// or a hyphen ("1-1/2") into one mixed number. A slash after a word is not a fraction
  /// ("1 cup / 240 ml", "200g/7oz").
  private static func joinFractions(_ tokens: inout [LineToken]) {
    guard tokens.count >= 3 else { return }
    var result: [LineToken] = []
    result.reserveCapacity(tokens.count)
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      if token.isInteger, index + 2 < tokens.count, tokens[index + 1].isSymbol("/"),
        tokens[index + 2].isInteger, let numerator = token.number, let denominator = tokens[index + 2].number,
        denominator > 0, !(index + 3 < tokens.count && tokens[index + 3].isSymbol("/"))
      {
        var fraction = token
        fraction.kind = .number(numerator / denominator)
        fraction.isInteger = false
        fraction.isFraction = true
        fraction.end = tokens[index + 2].end
        fraction.text += "/" + tokens[index + 2].text
        result.append(fraction)
        index += 3
      } else {
        result.append(token)
        index += 1
      }
    }
    tokens = []
    index = 0
    while index < result.count {
      let token = result[index]
      if token.isInteger, let whole = token.number, index + 1 < result.count {
        let next = result[index + 1]
        if next.isFraction, next.spaceBefore, let part = next.number, part < 1 {
          tokens.append(mixed(token, whole + part, next))
          index += 2
          continue
        }
        if next.isSymbol("-"), !next.spaceBefore, index + 2 < result.count, result[index + 2].isFraction,
          !result[index + 2].spaceBefore, let part = result[index + 2].number, part < 1
        {
          tokens.append(mixed(token, whole + part, result[index + 2]))
          index += 3
          continue
        }
      }
      tokens.append(token)
      index += 1
    }
  }

  private static func mixed(_ whole: LineToken, _ value: Double, _ fraction: LineToken) -> LineToken {
    var token = whole
    token.kind = .number(value)
    token.isInteger = false
    token.isFraction = false
    token.end = fraction.end
    token.text += " " + fraction.text
    return token
  }
}
