import Foundation

/// The JSON a record's field stamps are kept in (`{"field":{"counter":0,"replica":"…","time":0}}`,
/// keys sorted), written and read by hand. Sync reads and writes the stamps of every
/// record it touches, and `JSONEncoder`/`JSONDecoder` made that the largest cost of a sync
/// (a quarter of a two-device sync in the profile). The text is exactly what the encoder
/// with `.sortedKeys` writes, so files stay readable both ways; text the fast reader does
/// not expect (escapes, other spacing) goes to `JSONDecoder`.
enum StampCoding {
  static func encode(_ stamps: [String: Stamp]) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    bytes.reserveCapacity(stamps.count * 96)
    for (index, field) in stamps.keys.sorted().enumerated() {
      guard let stamp = stamps[field] else { continue }
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: escaped(field).utf8)
      bytes.append(contentsOf: #"":{"counter":"#.utf8)
      bytes.append(contentsOf: String(stamp.counter).utf8)
      bytes.append(contentsOf: #","replica":""#.utf8)
      bytes.append(contentsOf: escaped(stamp.replica).utf8)
      bytes.append(contentsOf: #"","time":"#.utf8)
      bytes.append(contentsOf: String(stamp.time).utf8)
      bytes.append(UInt8(ascii: "}"))
    }
    bytes.append(UInt8(ascii: "}"))
    return String(decoding: bytes, as: UTF8.self)
  }

  static func decode(_ text: String) -> [String: Stamp] {
    if let stamps = decodeSimple(text) { return stamps }
    return (try? JSONDecoder().decode([String: Stamp].self, from: Data(text.utf8))) ?? [:]
  }

  private static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else { return text }
    guard let data = try? JSONEncoder().encode(text) else { return text }
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  /// The exact shape `encode` writes, with no backslash anywhere; nil otherwise.
  private static func decodeSimple(_ text: String) -> [String: Stamp]? {
    let bytes = Array(text.utf8)
    guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}"), !bytes.contains(UInt8(ascii: "\\")) else { return nil }
    var stamps: [String: Stamp] = [:]
    var index = 1
    let end = bytes.count - 1

    func expect(_ literal: String) -> Bool {
      for byte in literal.utf8 {
        guard index < end, bytes[index] == byte else { return false }
        index += 1
      }
      return true
    }
    func string() -> String? {
      guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let start = index + 1
      guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
      index = close + 1
      return String(decoding: bytes[start..<close], as: UTF8.self)
    }
    func integer() -> Int64? {
      let start = index
      if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
      while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return Int64(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    while index < end {
      guard let field = string(), expect(":{\"counter\":"), let counter = integer(), let counter32 = Int32(exactly: counter),
        expect(",\"replica\":"), let replica = string(), expect(",\"time\":"), let time = integer(), expect("}")
      else { return nil }
      stamps[field] = Stamp(time: time, counter: counter32, replica: replica)
      if index < end {
        guard expect(","), index < end else { return nil }
      }
    }
    return stamps
  }
}
