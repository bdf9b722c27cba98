import Foundation

/// Finds the JSON-LD in a saved page without a full HTML parser: the text of every
/// `<script type="application/ld+json">` element, and the page's own address from
/// `<link rel="canonical">` or `<meta property="og:url">`.
///
/// Tolerant of what real pages do: HTML comments (a script inside one is skipped),
/// attributes in any order, quoted with " or ' or not at all, any letter case, character
/// references in their values (``HTMLAttributes``), type parameters
/// ("application/ld+json; charset=utf-8"), and script text wrapped in `<![CDATA[ … ]]>` or
/// `<!-- … -->`.
struct ScriptBlockScanner {
  struct Page {
    var blocks: [String] = []
    var canonicalURL: String?
  }

  private let bytes: [UInt8]

  init(_ text: String) { bytes = Array(text.utf8) }

  func scan() -> Page {
    var page = Page(), index = 0
    while let open = find(UInt8(ascii: "<"), from: index) {
      if starts(with: "<!--", at: open) {
        index = (find("-->", from: open + 4) ?? bytes.count - 3) + 3
        continue
      }
      guard let (tag, length) = tagName(at: open + 1) else {
        index = open + 1
        continue
      }
      // Only the tags read below need their attributes; the rest are stepped over the
      // same way (quotes honoured) without building any text.
      let (attributes, end) = HTMLAttributes.read(bytes, from: open + 1 + length, keeping: tag.isEmpty ? .none : .all)
      index = end
      switch tag {
      case "script":
        guard let close = find("</script", from: end, caseInsensitive: true) else { return page }
        let type = (attributes["type"] ?? "").split(separator: ";").first.map { $0.trimmed.lowercased() } ?? ""
        if type == "application/ld+json" { page.blocks.append(Self.unwrapped(String(decoding: bytes[end..<close], as: UTF8.self))) }
        index = close + 8
      case "link" where page.canonicalURL == nil:
        if attributes["rel"]?.lowercased().split(separator: " ").contains("canonical") == true {
          page.canonicalURL = attributes["href"]
        }
      case "meta" where page.canonicalURL == nil:
        if attributes["property"]?.lowercased() == "og:url" { page.canonicalURL = attributes["content"] }
      default: break
      }
    }
    return page
  }

  /// Script text without a CDATA or comment wrapper (and the `//` that hides it from
  /// scripts). A comment that closes before the end is not a wrapper but a comment before
  /// the JSON (`<!-- Yoast SEO -->{…}`): it is left for ``JSONRepair``.
  static func unwrapped(_ text: String) -> String {
    var body = Substring(text).trimmed
    for (open, close) in [("<![CDATA[", "]]>"), ("<!--", "-->")] {
      var start = body
      if start.hasPrefix("//") { start = start.dropFirst(2).trimmed }
      guard start.hasPrefix(open) else { continue }
      start = start.dropFirst(open.count)
      if let range = start.range(of: close) {
        guard start[range.upperBound...].trimmed.isEmpty else { continue }
        start = start[..<range.lowerBound].trimmed
        if start.hasSuffix("//") { start = start.dropLast(2) }
      }
      body = start.trimmed
    }
    return String(body)
  }

  // MARK: Reading the bytes

  /// The tags whose attributes ``scan()`` reads, as lowercase bytes.
  private static let readTags: [(name: String, bytes: [UInt8])] = ["script", "link", "meta"].map { ($0, Array($0.utf8)) }

  /// The tag starting at `index` — its lowercased name when ``scan()`` reads its attributes,
  /// else "" — and the name's length in bytes; nil when no letter starts there. Compared
  /// byte by byte: a page has thousands of tags and needs text for three kinds.
  private func tagName(at index: Int) -> (name: String, length: Int)? {
    var end = index
    while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
    guard end > index, isLetter(bytes[index]) else { return nil }
    let length = end - index
    for tag in Self.readTags where tag.bytes.count == length {
      if tag.bytes.indices.allSatisfy({ lowered(bytes[index + $0]) == tag.bytes[$0] }) { return (tag.name, length) }
    }
    return ("", length)
  }

  private func find(_ byte: UInt8, from start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    return bytes[start...].firstIndex(of: byte)
  }

  private func find(_ text: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
    let needle = Array(text.utf8)
    guard let first = needle.first, start < bytes.count else { return nil }
    var index = start
    while index + needle.count <= bytes.count {
      let byte = caseInsensitive ? lowered(bytes[index]) : bytes[index]
      if byte == first && matches(needle, at: index, caseInsensitive: caseInsensitive) { return index }
      index += 1
    }
    return nil
  }

  private func starts(with text: String, at index: Int) -> Bool { matches(Array(text.utf8), at: index, caseInsensitive: false) }

  private func matches(_ needle: [UInt8], at index: Int, caseInsensitive: Bool) -> Bool {
    guard index + needle.count <= bytes.count else { return false }
    for offset in needle.indices where (caseInsensitive ? lowered(bytes[index + offset]) : bytes[index + offset]) != needle[offset] {
      return false
    }
    return true
  }

  private func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
  private func isNameByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
  }
  private func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
}

extension Substring {
  var trimmed: Substring {
    let start = firstIndex(where: { !$0.isWhitespace }) ?? endIndex
    let end = lastIndex(where: { !$0.isWhitespace }).map { index(after: $0) } ?? start
    return start < end ? self[start..<end] : self[start..<start]
  }
}
