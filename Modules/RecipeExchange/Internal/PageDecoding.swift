import Foundation

/// The text of a file's bytes, in the character set the file is written in.
///
/// The rule, first match wins (Docs/IMPORT.md, "Character sets"):
/// 1. A byte-order mark: UTF-8, UTF-16 little- or big-endian.
/// 2. UTF-16 without a mark, told by a NUL byte beside the first `<`, `{` or `[`.
/// 3. Bytes that are valid UTF-8 are UTF-8, whatever the page declares: a page a browser
///    saved is written in UTF-8 but keeps the declaration it was served with. Not when
///    the page declares ISO-2022-JP and holds its escape bytes (that is 7-bit ASCII).
/// 4. The charset the page declares, `<meta charset=…>` or `<meta http-equiv="Content-Type"
///    content="…; charset=…">`, when Foundation decodes it and the bytes are valid in it.
///    `iso-8859-1` and `us-ascii` are read as windows-1252, as browsers do.
/// 5. Otherwise windows-1252 (Latin-1 where it leaves a byte undefined), with a warning
///    that says why: the text may be wrong, and the person importing is told so.
///
/// A file that is not text — a NUL byte or more than 1 % control bytes in its first 8 KB,
/// or NUL bytes in more than 1 % of it — is refused before any of this, except for
/// UTF-16, whose NULs are checked once decoded. A few NUL bytes further on (a page saved
/// with a run of them inside its HTML; browsers skip them) are removed, with a warning.
enum PageDecoding {
  struct Decoded {
    var text: String
    /// Why the text may not read as written, when it may not.
    var warning: String?
  }

  static func decode(_ data: Data) throws(RecipeReadError) -> Decoded {
    if let utf16 = utf16(data) {
      guard let text = String(data: data, encoding: utf16), !looksBinary(text) else { throw .binary }
      return Decoded(text: text)
    }
    guard !looksBinary(data) else { throw .binary }
    let nuls = nulCount(data)
    guard nuls * 100 <= data.count else { throw .binary }
    guard nuls == 0 else {
      var decoded = try decode(data.filter { $0 != 0 })
      let removed = "\(nuls) NUL byte\(nuls == 1 ? "" : "s") removed"
      decoded.warning = decoded.warning.map { removed + "; " + $0 } ?? removed + " (the rest reads as text)"
      return decoded
    }
    // In place, as in looksBinary: Data's own iterator is slow over a whole page.
    let hasEscape = data.withUnsafeBytes { bytes in bytes.baseAddress.map { memchr($0, 0x1B, bytes.count) != nil } ?? false }
    if !hasEscape, let text = String(data: data, encoding: .utf8) { return Decoded(text: text) }
    let declared = CharsetDeclaration.find(in: data)
    let encoding = declared.flatMap(CharsetDeclaration.encoding(named:))
    if let encoding, encoding != .utf8, let text = decode(data, as: encoding) {
      return Decoded(text: text)
    }
    if let text = String(data: data, encoding: .utf8) { return Decoded(text: text) }
    let reason =
      switch (declared, encoding) {
      case (nil, _): "it is not UTF-8 and declares no charset"
      case (let declared?, nil): "it declares charset '\(declared)', which Forager cannot read"
      case (let declared?, _?): "its bytes are not valid \(declared)"
      }
    let (sequences, invalid) = utf8Shape(data)
    guard sequences < invalid else {
      // UTF-8 with a stray byte or two: replacing those costs less than reading every
      // accented letter as two.
      return Decoded(
        text: String(decoding: data, as: UTF8.self),
        warning:
          "read as UTF-8 with \(invalid) byte\(invalid == 1 ? "" : "s") that \(invalid == 1 ? "is" : "are") not UTF-8 replaced by \u{FFFD}, because \(reason)"
      )
    }
    return Decoded(
      text: decode(data, as: .windowsCP1252) ?? String(decoding: data, as: UTF8.self),
      warning: "read as windows-1252 because \(reason); accented letters may be wrong")
  }

  /// windows-1252 falls back to Latin-1 for the five bytes it leaves undefined.
  private static func decode(_ data: Data, as encoding: String.Encoding) -> String? {
    guard encoding == .windowsCP1252 else { return String(data: data, encoding: encoding) }
    return String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1)
  }

  /// How many well-formed multi-byte UTF-8 sequences the bytes hold, and how many bytes
  /// are not part of one (nor ASCII).
  static func utf8Shape(_ data: Data) -> (sequences: Int, invalid: Int) {
    data.withUnsafeBytes { bytes in
      var sequences = 0, invalid = 0, index = 0
      while index < bytes.count {
        let lead = bytes[index]
        guard lead >= 0x80 else {
          index += 1
          continue
        }
        let length = lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
        let fits = length > 0 && index + length <= bytes.count
        if fits, (1..<length).allSatisfy({ bytes[index + $0] & 0xC0 == 0x80 }) {
          sequences += 1
          index += length
        } else {
          invalid += 1
          index += 1
        }
      }
      return (sequences, invalid)
    }
  }

  // MARK: UTF-16

  /// UTF-16 told by its byte-order mark, or by a NUL byte beside a first `<`, `{` or `[`.
  private static func utf16(_ data: Data) -> String.Encoding? {
    guard data.count >= 2 else { return nil }
    let first = data[data.startIndex], second = data[data.startIndex + 1]
    switch (first, second) {
    case (0xFF, 0xFE), (0xFE, 0xFF): return .utf16
    case (0x3C, 0), (0x7B, 0), (0x5B, 0): return .utf16LittleEndian
    case (0, 0x3C), (0, 0x7B), (0, 0x5B): return .utf16BigEndian
    default: return nil
    }
  }

  // MARK: Binary data

  /// Control bytes text may hold: tab, line feed, form feed, carriage return, and the
  /// escape, shift-out and shift-in of ISO-2022 encodings.
  private static func isTextControl(_ value: UInt32) -> Bool {
    value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D || value == 0x1B || value == 0x0E || value == 0x0F
  }

  /// A NUL byte in the first 8 KB, or more than 1 % control bytes there: an image,
  /// archive or program, not text (`decode` also refuses NUL bytes in more than 1 % of the
  /// whole). Reads the bytes in place: `Data`'s own iterator took a fifth of a page's read
  /// time.
  static func looksBinary(_ data: Data) -> Bool {
    data.withUnsafeBytes { bytes in
      guard let start = bytes.baseAddress else { return false }
      let sample = UnsafeRawBufferPointer(rebasing: bytes.prefix(8192))
      if memchr(start, 0, sample.count) != nil { return true }
      var controls = 0
      for byte in sample where (byte < 0x20 && !isTextControl(UInt32(byte))) || byte == 0x7F { controls += 1 }
      return controls * 100 > sample.count
    }
  }

  /// How many NUL bytes the data holds; 0 after one `memchr` for a page without any.
  private static func nulCount(_ data: Data) -> Int {
    data.withUnsafeBytes { bytes in
      guard let start = bytes.baseAddress, memchr(start, 0, bytes.count) != nil else { return 0 }
      var count = 0
      for byte in bytes where byte == 0 { count += 1 }
      return count
    }
  }

  /// The same rule over decoded text (UTF-16): a NUL anywhere, or more than 1 % control
  /// characters among the first 8,192.
  static func looksBinary(_ text: String) -> Bool {
    var controls = 0, count = 0
    for scalar in text.unicodeScalars {
      if scalar.value == 0 { return true }
      if count < 8192 {
        count += 1
        if (scalar.value < 0x20 && !isTextControl(scalar.value)) || scalar.value == 0x7F { controls += 1 }
      }
    }
    return controls * 100 > count
  }
}
