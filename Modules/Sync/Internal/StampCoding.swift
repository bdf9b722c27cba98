import Foundation

/// The text a record's field stamps are kept in, in the store's metadata.
///
/// Written compactly, each distinct stamp once with the fields it stamps:
/// `@1700000000123.3.a1b2c3=aliases,displayName;1700000000999.0.a1b2c3=@deleted`
/// (groups by stamp, fields sorted). Most records are stamped by one write, so this is one
/// group: about a sixth of the JSON that earlier versions wrote
/// (`{"field":{"counter":0,"replica":"…","time":0}}`, keys sorted) and that is still read,
/// and still written when a field name or replica contains one of `=,;`.
enum StampCoding {
  static func encode(_ stamps: [String: Stamp]) -> String {
    // The fields gathered under their stamps (a record has one or a few distinct ones),
    // the groups ordered by stamp and each group's fields by name.
    var groups: [(stamp: Stamp, fields: [String])] = []
    for (field, stamp) in stamps {
      guard isPlainField(field) else { return encodeJSON(stamps) }
      if let index = groups.firstIndex(where: { $0.stamp == stamp }) {
        groups[index].fields.append(field)
      } else {
        guard isPlainReplica(stamp.replica) else { return encodeJSON(stamps) }
        groups.append((stamp, [field]))
      }
    }
    groups.sort { $0.stamp < $1.stamp }
    var bytes: [UInt8] = [UInt8(ascii: "@")]
    bytes.reserveCapacity(64 + stamps.count * 16)
    for (index, group) in groups.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ";")) }
      append(group.stamp, to: &bytes)
      for (position, field) in group.fields.sorted().enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: field.utf8)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `time.counter.replica=`, a group's head.
  private static func append(_ stamp: Stamp, to bytes: inout [UInt8]) {
    appendDecimal(stamp.time, to: &bytes)
    bytes.append(UInt8(ascii: "."))
    appendDecimal(Int64(stamp.counter), to: &bytes)
    bytes.append(UInt8(ascii: "."))
    bytes.append(contentsOf: stamp.replica.utf8)
    bytes.append(UInt8(ascii: "="))
  }

  /// The digits are formed right to left in a buffer on the stack and appended at once.
  private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes; UInt64.max has 20 digits
    withUnsafeMutableBytes(of: &digits) { buffer in
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
  }

  static func decode(_ text: String) -> [String: Stamp] {
    if text.utf8.first == UInt8(ascii: "@") { return decodeCompact(text) ?? [:] }
    if let stamps = decodeSimpleJSON(text) { return stamps }
    return (try? JSONDecoder().decode([String: Stamp].self, from: Data(text.utf8))) ?? [:]
  }

  private static func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";")
  }

  private static func isPlainField(_ field: String) -> Bool {
    !field.isEmpty && !field.utf8.contains(where: isSeparator)
  }

  private static func isPlainReplica(_ replica: String) -> Bool {
    !replica.utf8.contains(where: isSeparator)
  }

  /// The compact form; nil when the text does not follow it.
  private static func decodeCompact(_ text: String) -> [String: Stamp]? {
    var stamps: [String: Stamp] = [:]
    var text = text
    return text.withUTF8 { bytes -> [String: Stamp]? in
      var index = 1
      let end = bytes.count
      // One field per separator, and one more: room for all of them at once.
      stamps.reserveCapacity(bytes.reduce(1) { $0 + ($1 == UInt8(ascii: ",") || $1 == UInt8(ascii: ";") ? 1 : 0) })
      func integer(until terminator: UInt8) -> Int64? {
        var negative = false, value: Int64 = 0, digits = 0
        if index < end, bytes[index] == UInt8(ascii: "-") {
          negative = true
          index += 1
        }
        while index < end, bytes[index] != terminator {
          let digit = Int64(bytes[index]) - 48
          guard (0...9).contains(digit) else { return nil }
          let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
          guard !overflowed else { return nil }
          let (sum, overflow) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
          guard !overflow else { return nil }
          value = sum
          digits += 1
          index += 1
        }
        guard digits > 0, index < end else { return nil }
        index += 1  // the terminator
        return value
      }
      func word(until first: UInt8, or second: UInt8) -> String {
        let start = index
        while index < end, bytes[index] != first, bytes[index] != second { index += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      }
      while index < end {
        guard let time = integer(until: UInt8(ascii: ".")), let counter = integer(until: UInt8(ascii: ".")),
          let counter32 = Int32(exactly: counter)
        else { return nil }
        let replica = word(until: UInt8(ascii: "="), or: UInt8(ascii: "="))
        guard index < end else { return nil }
        index += 1
        let stamp = Stamp(time: time, counter: counter32, replica: replica)
        while true {
          let field = word(until: UInt8(ascii: ","), or: UInt8(ascii: ";"))
          guard !field.isEmpty else { return nil }
          stamps[field] = stamp
          guard index < end else { return stamps }
          let separator = bytes[index]
          index += 1
          if separator == UInt8(ascii: ";") { break }
        }
      }
      return stamps
    }
  }

  // MARK: The JSON form of earlier versions

  /// What `JSONEncoder` with sorted keys writes, written by hand.
  static func encodeJSON(_ stamps: [String: Stamp]) -> String {
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

  private static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else { return text }
    guard let data = try? JSONEncoder().encode(text) else { return text }
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  /// The exact shape `encodeJSON` writes, with no backslash anywhere; nil otherwise.
  private static func decodeSimpleJSON(_ text: String) -> [String: Stamp]? {
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
