public import Foundation

// The two bodies a sync answers most — a pull page and a push receipt — written directly
// as JSON. They are the document `WireCoding.encoder()` makes (keys sorted, batches in
// base64), without escaping "/" (JSON does not require it); any JSON decoder reads them,
// `WireCoding.decoder()` included. Measured reason: Foundation's encoder was the server's
// largest single cost per sync (Docs/PERFORMANCE.md, "Hand-written code and its measured
// reasons").

extension PullPage {
  /// The page as JSON: `{"cursor":…,"endedAtByteLimit":b,"entries":[{"batch":base64,"sequence":n},…],"latestSequence":n}`.
  public func encodedJSON() -> Data {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(encodedJSONCount)
    for piece in jsonPieces() { bytes.append(contentsOf: piece) }
    return Data(bytes)
  }

  /// The JSON of ``encodedJSON()`` in pieces — the head, one piece per entry, the tail —
  /// each made when it is reached, so a server can send a page of large batches while it
  /// holds the page's bytes and one entry's base64, not the whole document.
  public func jsonPieces() -> some Sequence<[UInt8]> {
    let head = CollectionOfOne(head())
    let body = entries.indices.lazy.map { index in piece(index) }
    var tail = WireJSONText(capacity: 48)
    tail.append(#"],"latestSequence":"#)
    tail.appendInteger(latestSequence)
    tail.append("}")
    return [AnySequence(head), AnySequence(body), AnySequence(CollectionOfOne(tail.bytes))].joined()
  }

  /// How many bytes ``encodedJSON()`` is, counted without writing it (a Content-Length).
  public var encodedJSONCount: Int {
    let entriesCount = entries.indices.reduce(0) { count, index in
      count + (index == 0 ? 0 : 1) + #"{"batch":"","sequence":}"#.utf8.count + (entries[index].batch.count + 2) / 3 * 4
        + String(entries[index].sequence).utf8.count
    }
    return head().count + entriesCount + #"],"latestSequence":}"#.utf8.count + String(latestSequence).utf8.count
  }

  private func head() -> [UInt8] {
    var text = WireJSONText(capacity: 64)
    text.append(#"{"cursor":"#)
    text.appendString(cursor)
    text.append(endedAtByteLimit ? #","endedAtByteLimit":true,"entries":["# : #","endedAtByteLimit":false,"entries":["#)
    return text.bytes
  }

  private func piece(_ index: Int) -> [UInt8] {
    let entry = entries[index]
    var text = WireJSONText(capacity: (entry.batch.count + 2) / 3 * 4 + 40)
    text.append(index == 0 ? #"{"batch":""# : #",{"batch":""#)
    text.appendBase64(entry.batch)
    text.append(#"","sequence":"#)
    text.appendInteger(entry.sequence)
    text.append("}")
    return text.bytes
  }
}

extension PushReceipt {
  /// The receipt as JSON: `{"deviceSequence":n,"sequence":n,"stored":bool}`.
  public func encodedJSON() -> Data {
    var text = WireJSONText(capacity: 64)
    text.append(#"{"deviceSequence":"#)
    text.appendInteger(deviceSequence)
    text.append(#","sequence":"#)
    text.appendInteger(sequence)
    text.append(stored ? #","stored":true}"# : #","stored":false}"#)
    return text.data
  }
}

/// JSON text being written: literal pieces, escaped strings, integers and base64.
struct WireJSONText {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) { bytes.reserveCapacity(capacity) }

  var data: Data { Data(bytes) }

  /// Text written as it is: the caller's JSON punctuation and keys.
  mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// A JSON string: quoted, with quotes, backslashes and control characters escaped.
  mutating func appendString(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  mutating func appendInteger(_ value: Int64) {
    bytes.append(contentsOf: String(value).utf8)
  }

  /// Base64 with padding, as `JSONEncoder` writes `Data`; its alphabet needs no escaping.
  mutating func appendBase64(_ value: Data) {
    bytes.append(contentsOf: value.base64EncodedData())
  }
}
