public import Foundation
public import Model

/// A source of the current time for a store's change log.
public typealias StoreClock = @Sendable () -> Date

/// What produced a change: the user, an import from sync, a migration …
public struct ChangeOrigin: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The origin's name ("local", "sync").
  public let rawValue: String
  /// An origin with this name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A user's edit on this device.
  public static let local = ChangeOrigin(rawValue: "local")
  /// Rows sync writes: what the replicated state shows after other devices' changes
  /// arrived (not appended to the change log: see ``isLogged``).
  public static let sync = ChangeOrigin(rawValue: "sync")
  /// Changes a replica derived by itself (dedup merges, redirects).
  public static let derived = ChangeOrigin(rawValue: "derived")
  /// Schema migration.
  public static let migration = ChangeOrigin(rawValue: "migration")

  /// The origin's name.
  public var description: String { rawValue }

  /// Whether a write of this origin appends to the change log. The log is what this device
  /// did: its user's writes, what they caused, migrations. Rows sync writes are computed
  /// from the replicated state, which is their record; nothing reads them back from the
  /// log, and a device pulling 100k records would write 100k entries no one reads.
  public var isLogged: Bool { self != .sync }
}

/// What a change did to its record.
public enum ChangeOperation: String, Sendable, Hashable, Codable {
  /// Created, edited, or deleted (a tombstone).
  case insert, update, delete
}

/// One entry of a store's append-only change log.
public struct Change: Sendable, Hashable, Codable {
  /// Strictly increasing within one store, starting at 1.
  public let sequence: Int64
  /// The kind of the changed record.
  public let kind: EntityKind
  /// The changed record's id.
  public let id: UUID
  /// What the change did.
  public let operation: ChangeOperation
  /// The schema fields whose values changed, sorted. Inserts list every non-null field.
  public let fields: [String]
  /// What produced it.
  public let origin: ChangeOrigin
  /// When the transaction wrote it (wall clock).
  public let timestamp: Date

  /// A change-log entry from its parts.
  public init(
    sequence: Int64, kind: EntityKind, id: UUID, operation: ChangeOperation, fields: [String],
    origin: ChangeOrigin, timestamp: Date
  ) {
    self.sequence = sequence
    self.kind = kind
    self.id = id
    self.operation = operation
    self.fields = fields
    self.origin = origin
    self.timestamp = timestamp
  }
}
