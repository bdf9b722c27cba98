import Foundation
import Model
import Persistence

/// A record of one kind, as sync keys it.
struct RecordKey: Hashable, Comparable {
  let kind: EntityKind
  let id: UUID

  /// One word for the hasher instead of the id's 16 bytes and the kind: sync hashes a
  /// record's key several times for every record it touches. Ids are random or name-based
  /// UUIDs, so their halves folded together spread as well as the bytes do.
  func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: id.uuid) { bytes in
      hasher.combine(bytes.loadUnaligned(as: UInt64.self) ^ bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) &+ UInt64(kind.ordinal))
    }
  }

  static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
    lhs.kind.ordinal != rhs.kind.ordinal ? lhs.kind.ordinal < rhs.kind.ordinal : UUID.keeperOrder(lhs.id, rhs.id)
  }
}
