import Crypto
public import Foundation

/// Name-based identity for records of unique kinds.
///
/// Two devices that create "Produce" offline compute the same id, so they create the
/// *same* record and sync merges its fields instead of producing a duplicate.
///
/// ```swift
/// let id = DeterministicID.make(kind: .category, semanticKey: "produce")
/// ```
public enum DeterministicID {
  /// The namespace UUID of all Forager name-based ids.
  public static let namespace = UUID(
    uuid: (
      0x6f, 0x72, 0x61, 0x67, 0x65, 0x72, 0x4f, 0x49, 0x8a, 0x1d, 0x46, 0x4f, 0x52, 0x41, 0x47, 0x52
    ))

  /// A version-5 (SHA-1, name-based) UUID of `kind.rawValue + ":" + semanticKey`.
  public static func make(kind: EntityKind, semanticKey: String) -> UUID {
    uuidV5(namespace: namespace, name: kind.rawValue + ":" + semanticKey)
  }

  /// The id of the record at `position` among those its parent owns and creates with it
  /// (a recipe's ingredient lines): the parent's first 14 bytes, then the position in two
  /// bytes, big-endian. Ids sort by their bytes, so a parent's children sit next to each
  /// other in the id index, and creating a recipe writes one or two of its pages instead
  /// of one page per line. Nil past position 65,535.
  ///
  /// Only for a parent with a random id, whose children are made once, on the device that
  /// made it. Children that several devices make independently (a seeded recipe's lines)
  /// need ids that every version of Forager derives alike: ``uuidV5(namespace:name:)``.
  public static func child(of parent: UUID, at position: Int) -> UUID? {
    guard let position = UInt16(exactly: position) else { return nil }
    var bytes = parent.uuid
    bytes.14 = UInt8(position >> 8)
    bytes.15 = UInt8(position & 0xFF)
    return UUID(uuid: bytes)
  }

  /// RFC 9562 version-5 UUID of `name` in `namespace`.
  public static func uuidV5(namespace: UUID, name: String) -> UUID {
    var hasher = Insecure.SHA1()
    withUnsafeBytes(of: namespace.uuid) { hasher.update(bufferPointer: $0) }
    hasher.update(data: Data(name.utf8))
    var bytes = Array(hasher.finalize().prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x50
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}

extension UUID {
  /// The keeper order of Docs/DESIGN.md §2: ids compare by their lowercase string form, which
  /// is the same on every replica and platform. That form spells each byte as two hex
  /// digits, in order, and digits sort before letters, so comparing the bytes gives the
  /// same order without building the strings.
  public static func keeperOrder(_ lhs: UUID, _ rhs: UUID) -> Bool {
    withUnsafeBytes(of: lhs.uuid) { left in
      withUnsafeBytes(of: rhs.uuid) { right in left.lexicographicallyPrecedes(right) }
    }
  }

  /// Parses the 8-4-4-4-12 hex form (either case) without Foundation's `sscanf`-based
  /// parser; nil for anything else.
  public init?(hyphenatedHex text: String) {
    var text = text
    guard let parsed = text.withUTF8({ UUID(hyphenatedHex: $0) }) else { return nil }
    self = parsed
  }

  /// ``init(hyphenatedHex:)`` on UTF-8 bytes, such as a SQLite text column's.
  public init?(hyphenatedHex text: UnsafeBufferPointer<UInt8>) {
    guard text.count == 36 else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let valid = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
      var index = 0
      for byte in 0..<16 {
        if index == 8 || index == 13 || index == 18 || index == 23 {
          guard text[index] == UInt8(ascii: "-") else { return false }
          index += 1
        }
        guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return false }
        bytes[byte] = high << 4 | low
        index += 2
      }
      return true
    }
    guard valid else { return nil }
    self.init(uuid: uuid)
  }

  /// `uuidString.lowercased()`, written straight from the bytes: the form stores keep ids
  /// in and sync names records by, built often enough that Foundation's two passes show
  /// in profiles.
  public var lowercaseText: String {
    String(unsafeUninitializedCapacity: 36) { writeLowercaseText(into: $0, at: 0) }
  }

  /// Writes ``lowercaseText`` (36 bytes of UTF-8) into `buffer` from `offset`, for
  /// callers that build a longer text around an id without an intermediate string.
  /// - Returns: the offset after the id.
  public func writeLowercaseText(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
    precondition(offset >= 0 && buffer.count - offset >= 36, "no room for an id's 36 characters")
    return withUnsafeBytes(of: uuid) { bytes in
      // Digits by arithmetic, not from a table: no global to reach, no bounds to check.
      @inline(__always) func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? nibble &+ 48 : nibble &+ 87 }
      var count = offset
      for index in 0..<16 {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          buffer[count] = UInt8(ascii: "-")
          count &+= 1
        }
        let byte = bytes[index]
        buffer[count] = digit(byte >> 4)
        buffer[count &+ 1] = digit(byte & 0x0F)
        count &+= 2
      }
      return count
    }
  }
}

private func hexValue(_ character: UInt8) -> UInt8? {
  switch character {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
  default: nil
  }
}
