import Foundation

/// Reads the header of a batch in `ChangeBatchCoding`'s binary form — its id, replica and
/// schema version — without reading its changes, so the server can route and store a
/// batch from a newer schema it cannot read (unknown kinds and fields stay as they are).
///
/// Layout (Modules/Sync/ChangeBatchCoding.swift): magic `00 46 42 01`, then the id and the
/// replica as strings (a new string is a varint `length << 1` and its UTF-8 bytes; a repeat
/// is `index << 1 | 1`), then the schema version as a zigzag varint.
struct BatchHeader: Equatable {
  let id: String
  let replica: String
  let schemaVersion: Int

  static let magic: [UInt8] = [0x00, 0x46, 0x42, 0x01]

  /// - Throws: a reason, when the bytes do not start with a batch header.
  static func read(_ data: Data) throws(HeaderError) -> BatchHeader {
    let bytes = [UInt8](data.prefix(4096))
    guard bytes.starts(with: magic) else {
      throw HeaderError(reason: data.isEmpty ? "the body is empty" : "it does not start with the batch format's magic bytes 00 46 42 01")
    }
    var offset = magic.count
    var strings: [String] = []
    func varint() throws(HeaderError) -> UInt64 {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard offset < bytes.count else { throw HeaderError(reason: "the header is truncated at byte \(offset)") }
        let next = bytes[offset]
        offset += 1
        guard shift < 64 else { throw HeaderError(reason: "an integer is too long at byte \(offset)") }
        result |= UInt64(next & 0x7F) << shift
        if next & 0x80 == 0 { return result }
        shift += 7
      }
    }
    func string() throws(HeaderError) -> String {
      let header = try varint()
      if header & 1 == 1 {
        guard header >> 1 < UInt64(strings.count) else { throw HeaderError(reason: "a string reference is out of range") }
        return strings[Int(header >> 1)]
      }
      let length = header >> 1
      guard length <= UInt64(bytes.count - offset) else { throw HeaderError(reason: "the header is truncated at byte \(offset)") }
      let slice = bytes[offset..<(offset + Int(length))]
      offset += Int(length)
      guard let text = String(validating: slice, as: UTF8.self) else { throw HeaderError(reason: "a string is not UTF-8") }
      strings.append(text)
      return text
    }
    let id = try string()
    let replica = try string()
    let raw = try varint()
    let version = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    guard let schemaVersion = Int(exactly: version) else { throw HeaderError(reason: "the schema version is out of range") }
    return BatchHeader(id: id, replica: replica, schemaVersion: schemaVersion)
  }

  struct HeaderError: Error {
    let reason: String
  }
}
