/// The text rules of RFC 5545 that a calendar file's lines follow: TEXT escaping (§3.3.11)
/// and folding long content lines (§3.1), with CRLF line ends.
enum ICalendarText {
  /// The longest content line, in octets, not counting its CRLF.
  static let lineOctets = 75

  /// A TEXT value: backslash, semicolon and comma escaped; a line break (CRLF, CR or LF)
  /// written as `\n`; other control characters (which a TEXT value may not hold) left out.
  static func escape(_ text: String) -> String {
    var escaped = ""
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      switch scalar {
      case "\\": escaped += "\\\\"
      case ";": escaped += "\\;"
      case ",": escaped += "\\,"
      case "\n" where previous == "\r": continue
      case "\n", "\r", "\u{2028}", "\u{2029}": escaped += "\\n"
      case "\t": escaped.unicodeScalars.append(scalar)
      default:
        if scalar.properties.generalCategory == .control { continue }
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// The content line folded into lines of at most 75 octets, each ended by CRLF; a
  /// continuation line starts with one space (which counts toward its 75). A line is
  /// broken between characters, never inside a UTF-8 sequence, and inside a character
  /// (between its scalars) only when that one character is longer than a line.
  static func fold(_ line: String) -> String {
    var output = "", current = "", octets = 0
    func breakLine() {
      output += current + "\r\n"
      current = " "
      octets = 1
    }
    for character in line {
      let size = character.utf8.count
      if octets + size <= lineOctets {
        current.append(character)
        octets += size
        continue
      }
      if size <= lineOctets - 1 {
        breakLine()
        current.append(character)
        octets += size
        continue
      }
      for scalar in character.unicodeScalars {
        let scalarSize = String(scalar).utf8.count
        if octets + scalarSize > lineOctets { breakLine() }
        current.unicodeScalars.append(scalar)
        octets += scalarSize
      }
    }
    return output + current + "\r\n"
  }
}
