/// Rewrites the JSON-LD text of a page into strict JSON, for what browsers and the
/// common scrapers read but Foundation's parser refuses. One rule per form:
///
/// - raw control characters (tabs, line breaks) inside strings are escaped (`\t`, `\n`);
/// - a backslash that starts no JSON escape (`\'`, `\_`, `\x`) is dropped, keeping the
///   character it stood before, as JavaScript reads it;
/// - a byte-order mark, `//` and `/* */` comments, and `<!-- -->` comments outside
///   strings are dropped;
/// - a comma before `}` or `]`, and a `;` after the value, are dropped;
/// - control characters and no-break spaces between tokens become spaces;
/// - a script whose text is entity-encoded (`{&quot;@type&quot;: …}`, no `"` in it) is
///   decoded first.
///
/// The reader runs it only on a block the strict parser refused, so a well-formed page
/// pays nothing for it.
///
/// ```swift
/// let repair = JSONRepair.repair("{\"name\": \"it\\'s\tgood\",}")
/// repair.text     // {"name": "it's\tgood"}  (the tab escaped)
/// repair.repairs  // [.invalidEscape, .controlCharacter, .trailingComma]
/// ```
enum JSONRepair {
  /// The kinds of change a repair made.
  enum Repair: String, CaseIterable, Sendable {
    case controlCharacter = "raw control characters in strings"
    case invalidEscape = "invalid escapes"
    case comment = "comments or a byte-order mark"
    case trailingComma = "trailing commas"
    case strayPunctuation = "a semicolon after the value"
    case spaceBetweenTokens = "control characters between values"
    case htmlEntities = "HTML-escaped JSON"
  }

  struct Result {
    /// Strict JSON, as UTF-8 bytes.
    var bytes: [UInt8]
    /// What was changed, in the order the kinds are declared; empty when nothing was.
    var repairs: [Repair]
  }

  static func repair(_ text: String) -> Result {
    var made = Set<Repair>()
    var source = text
    if isEntityEncoded(text) {
      source = HTMLText.decodeEntities(text)
      made.insert(.htmlEntities)
    }
    let bytes = Array(source.utf8)
    let tokens = JSONTokenizer(bytes).tokens()
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 64)
    for (position, token) in tokens.enumerated() {
      switch token.kind {
      case .string:
        appendString(bytes[token.range], to: &output, made: &made)
      case .comment, .byteOrderMark:
        made.insert(.comment)
        output.append(0x20)
      case .space:
        for byte in bytes[token.range] {
          let allowed = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
          if !allowed { made.insert(.spaceBetweenTokens) }
          output.append(allowed ? byte : 0x20)
        }
      case .noBreakSpace:
        made.insert(.spaceBetweenTokens)
        output.append(0x20)
      case .punctuation(UInt8(ascii: ",")) where closesNext(tokens, after: position):
        made.insert(.trailingComma)
      case .punctuation(UInt8(ascii: ";")):
        made.insert(.strayPunctuation)
      case .punctuation, .other:
        output += bytes[token.range]
      }
    }
    return Result(bytes: output, repairs: Repair.allCases.filter(made.contains))
  }

  /// A script holding no `"` but `&quot;` (or `&#34;`, `&#x22;`): JSON written as HTML text.
  static func isEntityEncoded(_ text: String) -> Bool {
    !text.contains("\"") && (text.contains("&quot;") || text.contains("&#34;") || text.contains("&#x22;") || text.contains("&#X22;"))
  }

  /// Whether the next token that is not space or a comment is `}` or `]` (or there is none).
  private static func closesNext(_ tokens: [JSONTokenizer.Token], after position: Int) -> Bool {
    for token in tokens[(position + 1)...] {
      switch token.kind {
      case .space, .noBreakSpace, .comment, .byteOrderMark: continue
      case .punctuation(let byte): return byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
      case .string, .other: return false
      }
    }
    return true
  }

  /// A string token (quotes included) as strict JSON: raw control characters escaped,
  /// backslashes that start no escape dropped.
  private static func appendString(_ string: ArraySlice<UInt8>, to output: inout [UInt8], made: inout Set<Repair>) {
    var index = string.startIndex
    while index < string.endIndex {
      let byte = string[index]
      if byte == UInt8(ascii: "\\"), index + 1 < string.endIndex {
        let next = string[index + 1]
        if isEscape(next) || (next == UInt8(ascii: "u") && isUnicodeEscape(string, at: index)) {
          output += [byte, next]
          index += 2
          continue
        }
        made.insert(.invalidEscape)
        index += 1
        continue
      }
      if byte < 0x20 {
        made.insert(.controlCharacter)
        output += escaped(byte)
      } else {
        output.append(byte)
      }
      index += 1
    }
  }

  /// The characters after a backslash that make a JSON escape, other than `u`.
  private static func isEscape(_ byte: UInt8) -> Bool {
    [
      UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
      UInt8(ascii: "r"), UInt8(ascii: "t"),
    ].contains(byte)
  }

  /// `\u` and four hex digits at `index`.
  private static func isUnicodeEscape(_ string: ArraySlice<UInt8>, at index: Int) -> Bool {
    guard index + 6 <= string.endIndex else { return false }
    return string[(index + 2)..<(index + 6)].allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
  }

  private static func escaped(_ byte: UInt8) -> [UInt8] {
    switch byte {
    case 0x0A: Array(#"\n"#.utf8)
    case 0x0D: Array(#"\r"#.utf8)
    case 0x09: Array(#"\t"#.utf8)
    case 0x08: Array(#"\b"#.utf8)
    case 0x0C: Array(#"\f"#.utf8)
    default:
      Array(#"\u00"#.utf8) + [hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }
}
