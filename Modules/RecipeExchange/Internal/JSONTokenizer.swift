/// Splits script text into the tokens ``JSONRepair`` rewrites: strings (read to their
/// closing quote even across raw line breaks), comments, spaces and punctuation; every
/// other run of bytes (numbers, `true`, stray words) is kept as it is. Works on UTF-8
/// bytes: every byte it tells apart is ASCII.
struct JSONTokenizer {
  struct Token {
    enum Kind: Equatable {
      /// From `"` to the `"` that closes it, or to the end.
      case string
      /// `//` to the end of the line, `/* … */`, `<!-- … -->`, or a lone `-->`.
      case comment
      /// U+FEFF written as UTF-8.
      case byteOrderMark
      /// Bytes up to and including the space character, control characters among them.
      case space
      /// U+00A0 written as UTF-8.
      case noBreakSpace
      /// One of `{ } [ ] , : ;`.
      case punctuation(UInt8)
      case other
    }

    var kind: Kind
    var range: Range<Int>
  }

  private let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func tokens() -> [Token] {
    var tokens: [Token] = [], index = 0
    while index < bytes.count {
      let (kind, end) = token(at: index)
      if kind == .other, let last = tokens.last, last.kind == .other, last.range.upperBound == index {
        tokens[tokens.count - 1].range = last.range.lowerBound..<end
      } else {
        tokens.append(Token(kind: kind, range: index..<end))
      }
      index = end
    }
    return tokens
  }

  /// The kind of the token starting at `index` and where it ends.
  private func token(at index: Int) -> (Token.Kind, Int) {
    let byte = bytes[index]
    switch byte {
    case UInt8(ascii: "\""): return (.string, stringEnd(from: index + 1))
    case 0...0x20: return (.space, index + 1)
    case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"),
      UInt8(ascii: ";"):
      return (.punctuation(byte), index + 1)
    default: break
    }
    if starts(with: "//", at: index) { return (.comment, lineEnd(from: index)) }
    if starts(with: "/*", at: index) { return (.comment, end(of: "*/", from: index + 2)) }
    if starts(with: "<!--", at: index) { return (.comment, end(of: "-->", from: index + 4)) }
    if starts(with: "-->", at: index) { return (.comment, index + 3) }
    if starts(with: [0xEF, 0xBB, 0xBF], at: index) { return (.byteOrderMark, index + 3) }
    if starts(with: [0xC2, 0xA0], at: index) { return (.noBreakSpace, index + 2) }
    return (.other, index + 1)
  }

  /// The index after the quote that closes a string whose text starts at `start`.
  private func stringEnd(from start: Int) -> Int {
    var index = start
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    return bytes.count
  }

  private func lineEnd(from start: Int) -> Int {
    var index = start
    while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
    return index
  }

  /// The index after `close`, or the end when it never comes.
  private func end(of close: String, from start: Int) -> Int {
    let needle = Array(close.utf8)
    var index = start
    while index + needle.count <= bytes.count {
      if starts(with: needle, at: index) { return index + needle.count }
      index += 1
    }
    return bytes.count
  }

  private func starts(with text: String, at index: Int) -> Bool { starts(with: Array(text.utf8), at: index) }

  private func starts(with needle: [UInt8], at index: Int) -> Bool {
    guard index + needle.count <= bytes.count else { return false }
    for offset in needle.indices where bytes[index + offset] != needle[offset] { return false }
    return true
  }
}
