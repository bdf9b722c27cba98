/// A tag's attributes read as a browser reads them (the HTML tokenizer's attribute
/// states): names in any letter case, kept lowercased; values in double quotes, single
/// quotes or none, with their character references — named, decimal, hex — decoded
/// (`type="application&#x2F;ld&#x2B;json"` is `application/ld+json`); a name without a
/// value is an empty value; the first of two attributes with one name wins. Works on
/// UTF-8 bytes: every byte it tells apart is ASCII. Both page scanners read attributes
/// here, so a page says the same thing to each of them.
enum HTMLAttributes {
  /// Which attributes a reader keeps: the others are stepped over without building text.
  enum Keep {
    case none, all
    case only(Set<String>)
  }

  /// The attributes from `start` (just after the tag's name) to the `>` that closes the
  /// tag, and the index after it (the end of the bytes when no `>` comes).
  static func read(_ bytes: [UInt8], from start: Int, keeping keep: Keep) -> (attributes: [String: String], end: Int) {
    var attributes: [String: String] = [:], index = start
    while index < bytes.count {
      // Before a name: spaces and stray slashes (`<img/src=…>`, `<br />`).
      let byte = bytes[index]
      if isSpace(byte) || byte == slash {
        index += 1
        continue
      }
      if byte == greaterThan { return (attributes, index + 1) }
      // A name runs to a space, `/`, `>` or `=`; an `=` that starts one is part of it.
      let nameStart = index
      index += 1
      while index < bytes.count, !isSpace(bytes[index]), bytes[index] != slash, bytes[index] != greaterThan, bytes[index] != equals {
        index += 1
      }
      let name = keeps(keep) ? String(decoding: bytes[nameStart..<index].map(lowered), as: UTF8.self) : ""
      let kept = keeps(keep, name) && attributes[name] == nil
      index = skipSpaces(bytes, from: index)
      guard index < bytes.count, bytes[index] == equals else {
        if kept { attributes[name] = "" }
        continue
      }
      index = skipSpaces(bytes, from: index + 1)
      guard index < bytes.count else { break }
      let valueRange: Range<Int>
      if bytes[index] == doubleQuote || bytes[index] == singleQuote {
        let quote = bytes[index]
        var close = index + 1
        while close < bytes.count, bytes[close] != quote { close += 1 }
        valueRange = (index + 1)..<close
        index = close + 1
      } else if bytes[index] == greaterThan {
        // `name=>`: an empty value, and the tag ends.
        if kept { attributes[name] = "" }
        return (attributes, index + 1)
      } else {
        var close = index
        while close < bytes.count, !isSpace(bytes[close]), bytes[close] != greaterThan { close += 1 }
        valueRange = index..<close
        index = close
      }
      if kept { attributes[name] = value(bytes[valueRange]) }
    }
    return (attributes, bytes.count)
  }

  /// An attribute value's text, its character references decoded once.
  static func value(_ bytes: ArraySlice<UInt8>) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    return bytes.contains(ampersand) ? HTMLText.decodeEntities(text) : text
  }

  private static func keeps(_ keep: Keep) -> Bool {
    if case .none = keep { return false }
    return true
  }

  private static func keeps(_ keep: Keep, _ name: String) -> Bool {
    switch keep {
    case .none: false
    case .all: true
    case .only(let names): names.contains(name)
    }
  }

  private static let slash = UInt8(ascii: "/"), greaterThan = UInt8(ascii: ">"), equals = UInt8(ascii: "=")
  private static let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'"), ampersand = UInt8(ascii: "&")

  static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    return index
  }

  /// HTML's ASCII whitespace: space, tab, line feed, form feed, carriage return.
  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
  static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
}
