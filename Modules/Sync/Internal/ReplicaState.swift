import Foundation
import Model
import Persistence

/// A record of one kind, as sync keys it.
struct RecordKey: Hashable, Comparable {
  let kind: EntityKind
  let id: UUID

  static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
    lhs.kind.ordinal != rhs.kind.ordinal ? lhs.kind.ordinal < rhs.kind.ordinal : UUID.keeperOrder(lhs.id, rhs.id)
  }
}

/// A replica's sync bookkeeping, kept in its store's metadata table so it survives
/// restarts and commits or rolls back with the data it describes.
enum ReplicaKeys {
  static let replicaID = "sync.replica"
  static let clock = "sync.clock"
  /// Change-log sequence up to which local changes were written into the state.
  static let stamped = "sync.stamped"
  /// Change-log sequence up to which local changes were pushed.
  static let pushed = "sync.pushed"
  /// Cloud sequence up to which batches were pulled and applied.
  static let token = "sync.token"
  /// The identifier of the cloud the token and the pushed position refer to.
  static let cloud = "sync.cloud"
  /// "2" once the store keeps its sync state as registers (`StateStore`); stores written
  /// by earlier versions are converted once (`LegacyConversion`).
  static let format = "sync.format"

  static let statePrefix = "sync.state/"
  /// Reverse merge edges, `sync.edge/<kind>/<keeper>/<loser>`: which records were merged
  /// into a record (the loser's state holds the edge itself).
  static let edgePrefix = "sync.edge/"
  /// `sync.ref/<kind>/<target>/<owner kind>/<owner>`: a record whose view shows a
  /// reference to `target` other than as written (re-pointed to a keeper, cleared, or
  /// hiding the record), so the view is computed again when the target changes.
  static let referencePrefix = "sync.ref/"
  /// Records with merge edges this replica made that are not pushed yet.
  static let pushPrefix = "sync.push/"
  /// `sync.held/<sequence>`: a batch kept unread until an upgrade (``HeldBatch``, as JSON).
  static let heldPrefix = "sync.held/"

  /// The key of a held batch: its cloud sequence, zero-padded so keys sort in log order.
  static func held(_ sequence: Int64) -> String {
    let digits = String(sequence)
    return heldPrefix + String(repeating: "0", count: max(0, 19 - digits.count)) + digits
  }

  static func state(_ key: RecordKey) -> String { statePrefix + path(key) }
  static func reverseEdge(_ kind: EntityKind, keeper: UUID, loser: UUID) -> String {
    edgePrefix + kind.rawValue + "/" + keeper.lowercaseText + "/" + loser.lowercaseText
  }
  static func reference(to target: RecordKey, from owner: RecordKey) -> String {
    referencePrefix + path(target) + "/" + path(owner)
  }
  static func push(_ key: RecordKey) -> String { pushPrefix + path(key) }

  static func path(_ key: RecordKey) -> String { key.kind.rawValue + "/" + key.id.lowercaseText }

  /// Parses `<kind>/<id>` at the start of `text`.
  static func parsePath(_ text: Substring) -> RecordKey? {
    let parts = text.split(separator: "/", maxSplits: 2)
    guard parts.count >= 2, let kind = EntityKind(rawValue: String(parts[0])), let id = UUID(hyphenatedHex: String(parts[1].prefix(36)))
    else { return nil }
    return RecordKey(kind: kind, id: id)
  }
}

extension StoreReader {
  func syncInteger(_ key: String) throws -> Int64 { try metadata(forKey: key).flatMap { Int64($0) } ?? 0 }

  func replicaClock() throws -> HybridLogicalClock {
    try metadata(forKey: ReplicaKeys.clock).flatMap(HybridLogicalClock.init(encoded:)) ?? HybridLogicalClock()
  }
}

extension StoreWriter {
  func setSyncInteger(_ value: Int64, _ key: String) throws { try setMetadata(String(value), forKey: key) }

  /// The replica's id, created on first use from `newID`.
  func ensureReplicaID(_ newID: () -> String) throws -> String {
    if let id = try metadata(forKey: ReplicaKeys.replicaID) { return id }
    let id = newID()
    try setMetadata(id, forKey: ReplicaKeys.replicaID)
    return id
  }
}

/// The text a record's state is kept in: the compact binary form of a one-change batch
/// (`ChangeBatchCoding`), in base64.
enum StateCoding {
  static func encode(_ state: RecordState) -> String {
    ChangeBatchCoding.encode(ChangeBatch(id: "", replica: "", schemaVersion: 0, changes: [state.wholeChange])).base64EncodedString()
  }

  static func decode(_ text: String) -> RecordState? {
    guard let data = Data(base64Encoded: text), let change = try? ChangeBatchCoding.decode(data).changes.first else { return nil }
    return RecordState(change)
  }
}

/// The states of the records one transaction works on, read once and written back at the
/// end, and the reverse edges of the store.
final class StateStore {
  let writer: any StoreWriter
  private var cache: [RecordKey: RecordState] = [:]
  private var absent: Set<RecordKey> = []
  private var dirty: Set<RecordKey> = []
  /// Reverse edges keeper → losers, read by one range scan when the transaction starts
  /// (merged records are few).
  private var mergedInto: [RecordKey: [UUID]] = [:]

  init(_ writer: any StoreWriter) throws {
    self.writer = writer
    for key in try writer.metadataKeys(withPrefix: ReplicaKeys.edgePrefix) {
      let rest = key.dropFirst(ReplicaKeys.edgePrefix.count)
      guard let keeper = ReplicaKeys.parsePath(rest), let loser = UUID(hyphenatedHex: String(rest.suffix(36))) else { continue }
      mergedInto[keeper, default: []].append(loser)
    }
  }

  /// Reads the states of many records at once (a page of arrivals or of local changes).
  func preload(_ keys: some Collection<RecordKey>) throws {
    let wanted = keys.filter { cache[$0] == nil && !absent.contains($0) }
    guard !wanted.isEmpty else { return }
    let read = try writer.states(wanted)
    for key in wanted {
      if let state = read[key] { cache[key] = state } else { absent.insert(key) }
    }
  }

  /// The state of a record, or nil when this replica knows nothing of it.
  func state(_ key: RecordKey) throws -> RecordState? {
    if let cached = cache[key] { return cached }
    if absent.contains(key) { return nil }
    try preload([key])
    return cache[key]
  }

  func set(_ state: RecordState) {
    let key = RecordKey(kind: state.kind, id: state.id)
    cache[key] = state
    absent.remove(key)
    dirty.insert(key)
  }

  /// The records merged into `key` (the other ends of its incoming edges).
  func losers(of key: RecordKey) -> [UUID] { mergedInto[key] ?? [] }

  /// Records the reverse of a new edge loser → keeper.
  func noteEdge(_ kind: EntityKind, loser: UUID, keeper: UUID) throws {
    let key = RecordKey(kind: kind, id: keeper)
    guard !(mergedInto[key]?.contains(loser) ?? false) else { return }
    mergedInto[key, default: []].append(loser)
    try writer.setMetadata("", forKey: ReplicaKeys.reverseEdge(kind, keeper: keeper, loser: loser))
  }

  /// Writes the changed states back, in key order.
  func flush() throws {
    for key in dirty.sorted() {
      guard let state = cache[key] else { continue }
      try writer.setMetadata(StateCoding.encode(state), forKey: ReplicaKeys.state(key))
    }
    dirty = []
  }
}
