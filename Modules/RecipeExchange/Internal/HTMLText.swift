import Foundation

/// Text from pages as people should read it: HTML entities decoded (named, decimal,
/// hex), tags stripped, control characters dropped, every run of whitespace (no-break
/// and thin spaces too) one space.
enum HTMLText {
  /// The tidied text; empty when nothing readable is left.
  static func tidy(_ text: String) -> String {
    var result = decodeEntities(text)
    if result.contains("<") { result = stripTags(result) }
    if result.contains("&") { result = decodeEntities(result) }  // "&amp;frac12;" written twice over
    return collapsingWhitespace(result)
  }

  /// A line break for every `<br>` and every start and end of a `p`, `li` or `div` (a
  /// step per paragraph or list item, closed or not, as a page's markup writes them),
  /// decoded first when written as entities.
  static func breakingBlocks(_ text: String) -> String {
    let decoded = text.contains("&lt;") ? decodeEntities(text) : text
    guard decoded.contains("<") else { return text }
    return decoded.replacingOccurrences(
      of: #"<(br|/?p|/?li|/?div)(\s[^<>]*)?/?>"#, with: "\n", options: [.regularExpression, .caseInsensitive])
  }

  /// Every `<tag …>`, `</tag>` and `<!-- … -->` removed; a tag that is not inline is
  /// replaced by a space so "a<br>b" reads "a b". A "<" not followed by a letter, "/" or "!" is text ("< 5 min").
  static func stripTags(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var output = "", index = 0
    output.unicodeScalars.reserveCapacity(scalars.count)
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", index + 1 < scalars.count, isTagStart(scalars[index + 1]) {
        let isComment = index + 3 < scalars.count && scalars[index + 1] == "!" && scalars[index + 2] == "-" && scalars[index + 3] == "-"
        var end = index + 1
        if isComment {
          while end + 2 < scalars.count, !(scalars[end] == "-" && scalars[end + 1] == "-" && scalars[end + 2] == ">") { end += 1 }
          end += 2
        } else {
          while end < scalars.count, scalars[end] != ">" { end += 1 }
        }
        if isComment || !inlineTags.contains(tagName(scalars, from: index + 1)) { output.unicodeScalars.append(" ") }
        index = end + 1
        continue
      }
      output.unicodeScalars.append(scalar)
      index += 1
    }
    return output
  }

  /// Tags inside a run of text: removed without a space ("<b>2</b> eggs", "4<sup>th</sup>").
  private static let inlineTags: Set<String> = ["a", "abbr", "b", "em", "i", "small", "span", "strong", "sub", "sup", "u"]

  /// The lowercased name of the tag whose text starts at `start` (after "<"), "/" skipped.
  private static func tagName(_ scalars: [Unicode.Scalar], from start: Int) -> String {
    var index = start < scalars.count && scalars[start] == "/" ? start + 1 : start, name = ""
    while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
      name.unicodeScalars.append(scalars[index])
      index += 1
    }
    return name.lowercased()
  }

  private static func isTagStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "/" || scalar == "!" || (scalar.isASCII && scalar.properties.isAlphabetic)
  }

  /// "&amp;", "&frac12;", "&#189;", "&#xBD;" decoded; an unknown or broken entity stays as
  /// written. A numeric reference is read as browsers read it: its `;` may be left out
  /// (`&#189 cup`), and 128–159 are the windows-1252 characters pages mean by them
  /// (`&#150;` is an en dash).
  static func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var output = "", rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      output += rest[..<ampersand]
      let after = rest[rest.index(after: ampersand)...]
      if let (decoded, length) = numericReference(after) {
        output += decoded
        rest = after.dropFirst(length)
        continue
      }
      let body = after.prefix(while: { $0 != ";" && $0 != "&" && !$0.isWhitespace }).prefix(33)
      if body.count <= 32, after.dropFirst(body.count).first == ";", let decoded = entity(String(body)) {
        output += decoded
        rest = after.dropFirst(body.count + 1)
      } else {
        output += "&"
        rest = after
      }
    }
    return output + rest
  }

  private static func entity(_ body: String) -> String? { HTMLEntities.named[body] }

  /// The character of a numeric reference starting after its `&` ("#189;", "#xBD", at most
  /// eight digits), and how many characters it takes; nil when none starts there or its
  /// number is no character (0, a surrogate, past U+10FFFF), which stays as written.
  private static func numericReference(_ text: Substring) -> (String, Int)? {
    guard text.first == "#" else { return nil }
    var rest = text.dropFirst()
    let isHex = rest.first == "x" || rest.first == "X"
    if isHex { rest = rest.dropFirst() }
    let digits = rest.prefix(while: { $0.isASCII && (isHex ? $0.isHexDigit : $0.isNumber) })
    guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: isHex ? 16 : 10), value != 0 else { return nil }
    let scalar = (0x80...0x9F).contains(value) ? HTMLEntities.windows1252[Int(value - 0x80)] : Unicode.Scalar(value)
    guard let scalar else { return nil }
    let length = 1 + (isHex ? 1 : 0) + digits.count + (rest.dropFirst(digits.count).first == ";" ? 1 : 0)
    return (String(Character(scalar)), length)
  }

  /// Whitespace runs (any Unicode space, including no-break) as one space; control and
  /// invisible format characters (soft hyphen, zero-width space, byte-order mark)
  /// dropped; ends trimmed.
  static func collapsingWhitespace(_ text: String) -> String {
    var output = "", pendingSpace = false
    output.unicodeScalars.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      // ASCII answered from the value: looking up Unicode properties for every letter of a
      // page's texts was a tenth of reading it.
      let isWhitespace = scalar.isASCII ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)) : scalar.properties.isWhitespace
      if isWhitespace {
        pendingSpace = !output.isEmpty
      } else if scalar.isASCII ? (scalar.value < 0x20 || scalar.value == 0x7F) : Self.isControlOrFormat(scalar) {
        continue
      } else {
        if pendingSpace { output.unicodeScalars.append(" ") }
        pendingSpace = false
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  private static func isControlOrFormat(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format: true
    default: false
    }
  }
}
