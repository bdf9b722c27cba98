import Foundation
package import Model

extension FieldValue {
  /// The JSON text a list value is stored as: `["a","b"]`. Other values give "".
  package var storageText: String {
    switch self {
    case .textList(let values): return Self.jsonArray(values)
    case .referenceList(let ids): return Self.jsonArray(ids.map { $0.uuidString.lowercased() })
    default: return ""
    }
  }

  /// JSON for a list of strings, written by hand: every list value and every change-log
  /// entry goes through here, and `JSONEncoder` costs microseconds per call. Escapes what
  /// JSON requires (quote, backslash, control characters); slashes and non-ASCII stay as
  /// they are, as `JSONEncoder` with `.withoutEscapingSlashes` writes them.
  package static func jsonArray(_ strings: [String]) -> String {
    if strings.isEmpty { return "[]" }
    // Most lists (every change log's field names) have nothing to escape: copy their
    // bytes into the text in one pass instead of appending them to an array one by one.
    var length = 1
    for string in strings {
      for byte in string.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        return escapedJSONArray(strings)
      }
      length += string.utf8.count + 3
    }
    return String(unsafeUninitializedCapacity: length) { buffer in
      var count = 0
      func put(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
      }
      put(UInt8(ascii: "["))
      for (index, string) in strings.enumerated() {
        if index > 0 { put(UInt8(ascii: ",")) }
        put(UInt8(ascii: "\""))
        for byte in string.utf8 { put(byte) }
        put(UInt8(ascii: "\""))
      }
      put(UInt8(ascii: "]"))
      return count
    }
  }

  /// ``jsonArray(_:)`` for lists with a string that needs escapes.
  private static func escapedJSONArray(_ strings: [String]) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
    for (index, string) in strings.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x00..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: bytes.append(byte)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(UInt8(ascii: "]"))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The strings of a JSON array of strings, or nil when the text is not one. Lists
  /// without escapes (nearly all) are split by hand; anything else goes to `JSONDecoder`.
  package static func decodeJSONArray(_ text: String) -> [String]? {
    if text == "[]" { return [] }
    if let simple = decodeSimpleJSONArray(text) { return simple }
    return try? JSONDecoder().decode([String].self, from: Data(text.utf8))
  }

  /// `["a","b"]` with no backslash anywhere and nothing but commas between the strings;
  /// nil for anything else (whitespace, escapes, other values), left to the full decoder.
  private static func decodeSimpleJSONArray(_ text: String) -> [String]? {
    let utf8 = Array(text.utf8)
    guard utf8.count >= 2, utf8.first == UInt8(ascii: "["), utf8.last == UInt8(ascii: "]"),
      !utf8.contains(UInt8(ascii: "\\"))
    else { return nil }
    var strings: [String] = []
    var index = 1
    let end = utf8.count - 1
    while index < end {
      guard utf8[index] == UInt8(ascii: "\"") else { return nil }
      let start = index + 1
      guard let close = utf8[start..<end].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
      let element = utf8[start..<close]
      guard !element.contains(where: { $0 < 0x20 }) else { return nil }
      strings.append(String(decoding: element, as: UTF8.self))
      index = close + 1
      if index < end {
        guard utf8[index] == UInt8(ascii: ","), index + 1 < end else { return nil }
        index += 1
      }
    }
    return strings
  }
}
