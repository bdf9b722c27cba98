import Foundation

/// The character set a page declares for itself, read from its bytes before they are
/// decoded: `<meta charset="windows-1252">`, or `<meta http-equiv="Content-Type"
/// content="text/html; charset=ISO-8859-1">`. Both put the name after `charset=` inside
/// a `meta` tag, which is the rule read here.
enum CharsetDeclaration {
  /// How far into a page the declaration is looked for: browsers look at the first
  /// 1,024 bytes; saved pages put comments and inline styles first, so further.
  static let searchedBytes = 64 * 1024

  /// The declared name, lowercased ("windows-1252"); nil when no `meta` tag declares one.
  static func find(in data: Data) -> String? {
    let bytes = Array(data.prefix(searchedBytes))
    let needle = Array("charset".utf8)
    var index = 0
    while index + needle.count <= bytes.count {
      defer { index += 1 }
      guard (0..<needle.count).allSatisfy({ lowered(bytes[index + $0]) == needle[$0] }), isInMetaTag(bytes, at: index),
        let name = value(bytes, after: index + needle.count)
      else { continue }
      return name
    }
    return nil
  }

  /// Whether the tag around `index` is a `meta` tag: the last `<` before it opens `<meta`
  /// and no `>` closes a tag between them.
  private static func isInMetaTag(_ bytes: [UInt8], at index: Int) -> Bool {
    var start = index - 1
    while start >= 0, bytes[start] != UInt8(ascii: "<") {
      if bytes[start] == UInt8(ascii: ">") { return false }
      start -= 1
    }
    let tag = Array("<meta".utf8)
    guard start >= 0, start + tag.count < bytes.count else { return false }
    return (0..<tag.count).allSatisfy { lowered(bytes[start + $0]) == tag[$0] }
  }

  /// The name after `charset`: spaces, `=`, spaces, an optional quote, then letters,
  /// digits and `-_.:`.
  private static func value(_ bytes: [UInt8], after start: Int) -> String? {
    var index = start
    func skipSpaces() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
    skipSpaces()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
    index += 1
    skipSpaces()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") { index += 1 }
    let nameStart = index
    while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
    guard index > nameStart else { return nil }
    return String(decoding: bytes[nameStart..<index].map(lowered), as: UTF8.self)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":")].contains(byte)
  }

  private static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

  /// The encoding for a charset name, by the labels browsers accept; nil for one
  /// Foundation cannot decode on every platform Forager runs on (EUC-JP, GBK, Big5 and
  /// ISO-8859-15 among them). `iso-8859-1` and `us-ascii` mean windows-1252, as in
  /// browsers: pages so labelled use its curly quotes and euro sign.
  static func encoding(named name: String) -> String.Encoding? {
    switch name.lowercased() {
    case "utf-8", "utf8", "unicode-1-1-utf-8": .utf8
    case "windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "ibm819",
      "us-ascii", "ascii":
      .windowsCP1252
    case "iso-8859-2", "iso8859-2", "iso_8859-2", "latin2", "l2": .isoLatin2
    case "windows-1250", "cp1250", "x-cp1250": .windowsCP1250
    case "windows-1251", "cp1251", "x-cp1251": .windowsCP1251
    case "windows-1253", "cp1253", "x-cp1253": .windowsCP1253
    case "windows-1254", "cp1254", "x-cp1254", "iso-8859-9", "iso8859-9", "latin5", "l5": .windowsCP1254
    case "shift_jis", "shift-jis", "sjis", "ms_kanji", "windows-31j", "x-sjis", "csshiftjis": .shiftJIS
    case "iso-2022-jp", "csiso2022jp": .iso2022JP
    case "macintosh", "mac", "x-mac-roman", "csmacintosh": .macOSRoman
    default: nil
    }
  }
}
