/// Text trimmed of Unicode whitespace at both ends, as Foundation's
/// `trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces`) trims it, without
/// bridging to `NSString`: a text whose ends are visible ASCII, nearly every one, is
/// returned as it is after a look at two bytes.
///
/// Migrating a store trims every id and text of every row; Foundation's trim was a third
/// of the migration's time (Docs/PERFORMANCE.md, "Where the time goes").
///
/// ```swift
/// Whitespace.trimmed("\u{00A0} Produce\n")                  // "Produce"
/// Whitespace.trimmed("\tlunch\n", newlines: false)          // "lunch\n"
/// ```
public enum Whitespace {
  /// `text` without the Unicode whitespace (the `White_Space` property and U+200B ZERO
  /// WIDTH SPACE: Foundation's `.whitespacesAndNewlines`) at its ends; with `newlines: false`, without the spaces and
  /// tabs only (Foundation's `.whitespaces`), so line breaks stay.
  public static func trimmed(_ text: String, newlines: Bool = true) -> String {
    if hasVisibleASCIIEnds(text.utf8) { return text }
    return trimmed(text[...], newlines: newlines)
  }

  /// ``trimmed(_:newlines:)-(String,_)`` of a part of a text.
  public static func trimmed(_ text: Substring, newlines: Bool = true) -> String {
    if hasVisibleASCIIEnds(text.utf8) { return String(text) }
    let scalars = text.unicodeScalars
    var start = scalars.startIndex, end = scalars.endIndex
    while start < end, isTrimmed(scalars[start], newlines: newlines) { start = scalars.index(after: start) }
    while end > start, isTrimmed(scalars[scalars.index(before: end)], newlines: newlines) { end = scalars.index(before: end) }
    return String(scalars[start..<end])
  }

  /// Whether the text starts and ends with a visible ASCII character (nearly every text):
  /// then nothing is trimmed. False for an empty text.
  private static func hasVisibleASCIIEnds(_ utf8: some BidirectionalCollection<UInt8>) -> Bool {
    guard let first = utf8.first, let last = utf8.last else { return false }
    return first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80
  }

  private static func isTrimmed(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
    // Foundation's sets add ZERO WIDTH SPACE to the White_Space property's.
    guard scalar.properties.isWhitespace || scalar.value == 0x200B else { return false }
    if newlines { return true }
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return false
    default: return true
    }
  }
}
