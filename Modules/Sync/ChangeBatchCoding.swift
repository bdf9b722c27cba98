public import Foundation
import Model

/// The bytes a cloud stores for a ``ChangeBatch``: a compact binary form, several times
/// faster to write and read than JSON and a third of its size. ``decode(_:)`` also reads
/// the JSON that earlier versions stored, so an existing cloud file keeps working.
///
/// Layout (little-endian, integers as LEB128 varints, signed ones zigzag-encoded): the
/// magic bytes `00 46 42 01`, then the batch id, replica, schema version and change count,
/// then per change its kind, id (16 bytes), createdAt and updatedAt (the Float64 bits of
/// their seconds since 2001, as `Date` holds them), owner, sharing scope and fields; per
/// field its name, a value (a tag byte and its payload) and a stamp (time, counter,
/// replica). Every string is written once; a repeat is written as its index among the
/// batch's earlier strings.
public enum ChangeBatchCoding {
  /// Why stored bytes are not a batch.
  public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the bytes.
    public let reason: String
    /// A message saying why the bytes are not a batch.
    public var description: String { "not a change batch: \(reason)" }
  }

  static let magic: [UInt8] = [0x00, 0x46, 0x42, 0x01]

  /// The batch in the binary form the cloud stores.
  public static func encode(_ batch: ChangeBatch) -> Data {
    // About 150 bytes per change: a record's state (one change) stays within one small
    // allocation, a pushed batch grows a few times.
    var writer = Writer(capacity: 64 + batch.changes.count * 192)
    // A change's kind, field names, owner and replicas: room for them without growing the
    // list (a record's state is encoded on its own each time it changes).
    writer.strings.reserveCapacity(Writer.linearLimit)
    writer.bytes.append(contentsOf: magic)
    writer.string(batch.id)
    writer.string(batch.replica)
    writer.signed(Int64(batch.schemaVersion))
    writer.unsigned(UInt64(batch.changes.count))
    for change in batch.changes {
      writer.string(change.kind.rawValue)
      writer.uuid(change.id)
      writer.date(change.createdAt)
      writer.date(change.updatedAt)
      writer.string(change.ownerID)
      writer.string(change.sharingScope.rawValue)
      writer.unsigned(UInt64(change.fields.count))
      // Sorted, so equal batches encode to equal bytes.
      for (name, stamped) in change.fields.sorted(by: { $0.key < $1.key }) {
        writer.string(name)
        writer.value(stamped.value)
        writer.signed(stamped.stamp.time)
        writer.signed(Int64(stamped.stamp.counter))
        writer.string(stamped.stamp.replica)
      }
    }
    return Data(writer.bytes)
  }

  /// Reads a batch from its binary form; throws `DecodingError` when the bytes are not one.
  public static func decode(_ data: Data) throws -> ChangeBatch {
    guard data.starts(with: magic) else {
      guard data.first == UInt8(ascii: "{") else { throw DecodingError(reason: "unknown format") }
      return try JSONDecoder().decode(ChangeBatch.self, from: data)
    }
    return try data.withUnsafeBytes { buffer in
      var reader = Reader(buffer: buffer, offset: magic.count)
      let id = try reader.string()
      let replica = try reader.string()
      let schemaVersion = Int(try reader.signed())
      let count = try reader.count()
      var changes: [RecordChange] = []
      changes.reserveCapacity(count)
      for _ in 0..<count {
        let kindName = try reader.string()
        guard let kind = EntityKind(rawValue: kindName) else { throw DecodingError(reason: "unknown kind '\(kindName)'") }
        let id = try reader.uuid()
        let createdAt = try reader.date()
        let updatedAt = try reader.date()
        let ownerID = try reader.string()
        let scopeName = try reader.string()
        guard let scope = SharingScope(rawValue: scopeName) else { throw DecodingError(reason: "unknown sharing scope '\(scopeName)'") }
        let fieldCount = try reader.count()
        var fields: [String: StampedValue] = [:]
        fields.reserveCapacity(fieldCount)
        for _ in 0..<fieldCount {
          let name = try reader.string()
          let value = try reader.value()
          let time = try reader.signed()
          let counter = try reader.signed()
          guard let counter32 = Int32(exactly: counter) else { throw DecodingError(reason: "stamp counter out of range") }
          fields[name] = StampedValue(value: value, stamp: Stamp(time: time, counter: counter32, replica: try reader.string()))
        }
        changes.append(
          RecordChange(
            kind: kind, id: id, createdAt: createdAt, updatedAt: updatedAt, ownerID: ownerID, sharingScope: scope, fields: fields
          ))
      }
      guard reader.offset == buffer.count else {
        throw DecodingError(reason: "\(buffer.count - reader.offset) bytes after the last change")
      }
      return ChangeBatch(id: id, replica: replica, schemaVersion: schemaVersion, changes: changes)
    }
  }

  /// A value's encoded bytes: a total order on values, for breaking ties between equal stamps.
  static func valueBytes(_ value: FieldValue) -> [UInt8] {
    var writer = Writer(capacity: 32)
    writer.value(value)
    return writer.bytes
  }

  private enum Tag: UInt8 {
    case null = 0, text, integer, real, bool, timestamp, reference, textList, referenceList
  }

  private struct Writer {
    var bytes: [UInt8] = []
    /// The strings written so far, in order: a repeat is written as its index here.
    var strings: [String] = []
    /// Their UTF-8 lengths: only a string of the same length is compared.
    var lengths: [Int] = []
    /// The same strings by their bytes, made once there are more than ``linearLimit``: a
    /// record's state (one change, about fifteen strings) is found faster by comparing than
    /// by hashing, a pushed batch of hundreds of changes by hashing.
    var indexes: [UTF8Key: UInt64] = [:]
    static let linearLimit = 24

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func unsigned(_ value: UInt64) {
      var value = value
      while value >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
      }
      bytes.append(UInt8(value))
    }

    mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// A new string as `length << 1` and its UTF-8 bytes; a repeat as `index << 1 | 1`.
    mutating func string(_ value: String) {
      if let index = index(of: value) {
        unsigned(index << 1 | 1)
        return
      }
      strings.append(value)
      lengths.append(value.utf8.count)
      if strings.count > Self.linearLimit {
        if indexes.isEmpty {
          for (position, string) in strings.enumerated() { indexes[UTF8Key(string)] = UInt64(position) }
        } else {
          indexes[UTF8Key(value)] = UInt64(strings.count - 1)
        }
      }
      var value = value
      value.withUTF8 { utf8 in
        unsigned(UInt64(utf8.count) << 1)
        bytes.append(contentsOf: utf8)
      }
    }

    /// A repeat is the same bytes: Swift's `==` would take "è" for "e" + U+0300 and write a
    /// text in the other form than it was given.
    private func index(of value: String) -> UInt64? {
      guard strings.count <= Self.linearLimit else { return indexes[UTF8Key(value)] }
      let length = value.utf8.count
      for position in strings.indices where lengths[position] == length && strings[position].utf8.elementsEqual(value.utf8) {
        return UInt64(position)
      }
      return nil
    }

    /// A string compared and hashed by its UTF-8 bytes.
    struct UTF8Key: Hashable {
      let text: String
      init(_ text: String) { self.text = text }
      static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }
      func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
      }
    }

    mutating func uuid(_ id: UUID) {
      withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
    }

    mutating func date(_ date: Date) {
      withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func value(_ value: FieldValue) {
      switch value {
      case .null: bytes.append(Tag.null.rawValue)
      case .text(let text):
        bytes.append(Tag.text.rawValue)
        string(text)
      case .integer(let integer):
        bytes.append(Tag.integer.rawValue)
        signed(integer)
      case .real(let real):
        bytes.append(Tag.real.rawValue)
        withUnsafeBytes(of: real.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
      case .bool(let flag):
        bytes.append(Tag.bool.rawValue)
        bytes.append(flag ? 1 : 0)
      case .timestamp(let date):
        bytes.append(Tag.timestamp.rawValue)
        self.date(date)
      case .reference(let id):
        bytes.append(Tag.reference.rawValue)
        uuid(id)
      case .textList(let texts):
        bytes.append(Tag.textList.rawValue)
        unsigned(UInt64(texts.count))
        for text in texts { string(text) }
      case .referenceList(let ids):
        bytes.append(Tag.referenceList.rawValue)
        unsigned(UInt64(ids.count))
        for id in ids { uuid(id) }
      }
    }
  }

  struct Reader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int
    var strings: [String] = []

    mutating func byte() throws -> UInt8 {
      guard offset < buffer.count else { throw DecodingError(reason: "truncated at byte \(offset)") }
      defer { offset += 1 }
      return buffer[offset]
    }

    mutating func unsigned() throws -> UInt64 {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let next = try byte()
        guard shift < 64 else { throw DecodingError(reason: "integer too long at byte \(offset)") }
        result |= UInt64(next & 0x7F) << shift
        if next & 0x80 == 0 { return result }
        shift += 7
      }
    }

    mutating func signed() throws -> Int64 {
      let raw = try unsigned()
      return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A count of items that follow, each at least one byte long.
    mutating func count() throws -> Int {
      let value = try unsigned()
      guard value <= UInt64(buffer.count - offset) else { throw DecodingError(reason: "count \(value) exceeds the data at byte \(offset)") }
      return Int(value)
    }

    mutating func take(_ length: Int) throws -> UnsafeRawBufferPointer {
      guard length >= 0, length <= buffer.count - offset else { throw DecodingError(reason: "truncated at byte \(offset)") }
      defer { offset += length }
      return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)])
    }

    mutating func string() throws -> String {
      let header = try unsigned()
      if header & 1 == 1 {
        let index = header >> 1
        guard index < UInt64(strings.count) else { throw DecodingError(reason: "string reference \(index) out of range at byte \(offset)") }
        return strings[Int(index)]
      }
      guard header >> 1 <= UInt64(buffer.count - offset) else { throw DecodingError(reason: "truncated string at byte \(offset)") }
      let text = String(decoding: try take(Int(header >> 1)), as: UTF8.self)
      strings.append(text)
      return text
    }

    mutating func uuid() throws -> UUID {
      // Loaded straight from the bytes: `UUID()` as a buffer to copy into drew random bytes
      // first, which on Linux opens, reads and closes /dev/urandom for every decoded record.
      UUID(uuid: try take(16).loadUnaligned(as: uuid_t.self))
    }

    mutating func bits() throws -> UInt64 {
      let raw = try take(8)
      var bits: UInt64 = 0
      withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: raw) }
      return UInt64(littleEndian: bits)
    }

    mutating func date() throws -> Date { Date(timeIntervalSinceReferenceDate: Double(bitPattern: try bits())) }

    mutating func value() throws -> FieldValue {
      let tagByte = try byte()
      guard let tag = Tag(rawValue: tagByte) else { throw DecodingError(reason: "unknown value tag \(tagByte) at byte \(offset - 1)") }
      switch tag {
      case .null: return .null
      case .text: return .text(try string())
      case .integer: return .integer(try signed())
      case .real: return .real(Double(bitPattern: try bits()))
      case .bool: return .bool(try byte() != 0)
      case .timestamp: return .timestamp(try date())
      case .reference: return .reference(try uuid())
      case .textList: return .textList(try (0..<count()).map { _ in try string() })
      case .referenceList: return .referenceList(try (0..<count()).map { _ in try uuid() })
      }
    }
  }
}
