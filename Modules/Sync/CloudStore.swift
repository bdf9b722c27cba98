public import Foundation

/// The shared place devices sync through: an ordered log of change batches and a
/// registry of devices.
///
/// Backends: `InMemoryCloud` (module `SyncMemory`: tests, one process) and `SQLiteCloud` (module
/// `SyncSQLite`, a file several processes can share). A backend must append each pushed
/// batch atomically (never interleaving two pushes), keep a batch id only once, and hand
/// out increasing sequence numbers that pulls page through.
public protocol CloudStore: AnyObject, Sendable {
  /// Where the cloud lives, for messages.
  var location: String { get }
  /// A value that identifies this cloud (not its location): a device that syncs with a
  /// different cloud than before starts over with it, pulling everything and pushing all
  /// of its own changes.
  var identifier: String { get }
  /// Appends a batch and returns its sequence number; a batch whose id is already in the
  /// log is not appended again and its existing sequence number is returned.
  func push(_ batch: ChangeBatch) throws -> Int64
  /// Up to `limit` entries with a sequence number above `sequence`, oldest first.
  func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry]
  /// The newest sequence number, 0 for an empty log.
  func latestSequence() throws -> Int64
  /// Records (or refreshes) a device in the registry.
  func register(_ device: CloudDevice) throws
  /// Every registered device.
  func devices() throws -> [CloudDevice]
  /// Closes the cloud's connections (a file cloud then leaves no write-ahead log).
  func close() throws
  /// The time authority's clock now, when this cloud has one: a server's clock, which its
  /// door checks every pushed stamp against. Nil when each device's own clock is the
  /// authority: a cloud in one process or in one file on one machine, whose devices read
  /// the same clock.
  ///
  /// At the start of each sync the engine learns how far its store's clock lies from this
  /// one and stamps and checks with the corrected time (``SyncEngine/clockOffset()``), so
  /// a device whose clock is a year off still takes full part.
  func authorityTime() throws -> Date?
  /// Page `page` of the cloud's snapshot of the household's joined states at `position`
  /// (nil: its newest snapshot), or nil when it keeps none (``SnapshotPage``). A device with
  /// no place in the log starts from it (Docs/SYNC.md, "Snapshots").
  func snapshotPage(_ page: Int, at position: Int64?) throws -> SnapshotPage?
}

extension CloudStore {
  /// Clouds without connections (in memory) have nothing to close.
  public func close() throws {}
  /// Clouds without a clock of their own leave each device's clock the authority.
  public func authorityTime() throws -> Date? { nil }
  /// Clouds that keep no snapshot: every device pulls the whole log.
  public func snapshotPage(_ page: Int, at position: Int64?) throws -> SnapshotPage? { nil }
}

/// One batch in the cloud's log.
public struct CloudEntry: Sendable, Hashable {
  /// The entry's place in the log, starting at 1.
  public let sequence: Int64
  /// The batch; for a held entry, its header with no changes.
  public let batch: ChangeBatch
  /// Set when this version cannot read the batch (a newer schema): the device keeps it.
  public let held: HeldBatch?
  /// Set when the bytes are not a batch any version reads (damaged, or a hostile push a
  /// server did not check): the device sets the entry aside (``SetAsideChange``) and goes on.
  public let damage: String?

  /// An entry holding a readable batch.
  public init(sequence: Int64, batch: ChangeBatch) {
    self.sequence = sequence
    self.batch = batch
    held = nil
    damage = nil
  }

  /// An entry this version cannot read, kept as it is.
  public init(held: HeldBatch) {
    sequence = held.sequence
    batch = ChangeBatch(id: held.id, replica: held.replica, schemaVersion: held.schemaVersion, changes: [])
    self.held = held
    damage = nil
  }

  /// An entry whose bytes cannot be read as a batch, and why.
  public init(sequence: Int64, damage: String) {
    self.sequence = sequence
    batch = ChangeBatch(id: "", replica: "", schemaVersion: 0, changes: [])
    held = nil
    self.damage = damage
  }
}

/// A device as the cloud's registry knows it, so an upgrade can see which schema
/// versions are still active.
public struct CloudDevice: Sendable, Hashable, Codable {
  /// The device's replica id.
  public let replicaID: String
  /// The device's name.
  public let name: String
  /// The schema version the device runs.
  public let schemaVersion: Int
  /// When the device last registered.
  public let lastSeen: Date

  /// A device from its parts.
  public init(replicaID: String, name: String, schemaVersion: Int, lastSeen: Date) {
    self.replicaID = replicaID
    self.name = name
    self.schemaVersion = schemaVersion
    self.lastSeen = lastSeen
  }
}

/// Why the cloud refused or failed an operation.
public enum CloudError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The cloud cannot be reached: where, and why.
  case unavailable(location: String, reason: String)
  /// The cloud's data is damaged: where, and what was found.
  case damaged(location: String, reason: String)
  /// A pull after `cursor` found the log ending earlier, at `latestSequence` (the cloud was
  /// restored from an earlier point): the engine pulls again from `latestSequence`, so it
  /// skips none of the entries appended from there.
  case cursorAhead(location: String, cursor: Int64, latestSequence: Int64)
  /// A pull after `cursor` asked for batches the cloud compacted away: its log now starts
  /// at `firstKept` (Docs/SERVER.md, "Compaction"). The engine starts again from the
  /// cloud's snapshot, joining it into the states it holds, and pulls from its position.
  case compacted(location: String, cursor: Int64, firstKept: Int64)

  /// A message naming the cloud and what failed.
  public var description: String {
    switch self {
    case .unavailable(let location, let reason): "cloud \(location) is unavailable: \(reason)"
    case .damaged(let location, let reason): "cloud \(location) is damaged: \(reason)"
    case .cursorAhead(let location, let cursor, let latest):
      "cloud \(location) ends at sequence \(latest), before this device's place \(cursor): it was restored from an earlier point"
    case .compacted(let location, let cursor, let firstKept):
      "cloud \(location) no longer keeps the batches after this device's place \(cursor): its log starts at sequence \(firstKept) "
        + "(compacted); start again from its snapshot"
    }
  }
}
