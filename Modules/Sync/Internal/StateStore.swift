import Foundation
import Model
import Persistence

/// The states of the records one transaction works on, read once and written back at the
/// end, the reverse edges of the store, and the index of each state's own key.
final class StateStore {
  let writer: any StoreWriter
  private var cache: [RecordKey: RecordState] = [:]
  private var absent: Set<RecordKey> = []
  private var dirty: Set<RecordKey> = []
  /// Reverse edges keeper → losers, read by one range scan when the transaction starts
  /// (merged records are few).
  private var mergedInto: [RecordKey: [UUID]] = [:]
  /// Key index entries read in this transaction, by key; kept up to date by ``set(_:)``.
  private var holders: [SharedKey: [UUID]] = [:]
  /// Keys a state left in this transaction (its key register changed): the records still
  /// holding such a key may no longer be one entity with it.
  private(set) var leftKeys: Set<SharedKey> = []
  /// Counts the changes to states and edges in this transaction, so what was computed from
  /// them (`IdentityComponents`) knows when to compute again.
  private(set) var version = 0

  /// The states the sync this transaction belongs to has written (``DecodedStates``).
  private let decoded: DecodedStates?

  init(_ writer: any StoreWriter, decoded: DecodedStates? = nil) throws {
    self.writer = writer
    self.decoded = decoded
    for key in try writer.metadataKeys(withPrefix: ReplicaKeys.edgePrefix) {
      // `<kind>/<keeper>/<loser>`
      let length = ReplicaKeys.edgePrefix.utf8.count
      guard let keeper = ReplicaKeys.parsePath(key, from: length),
        let loser = ReplicaKeys.trailingID(key, from: key.utf8.count - 36)
      else { continue }
      mergedInto[keeper, default: []].append(loser)
    }
  }

  /// Reads the states of many records at once (a page of arrivals or of local changes).
  func preload(_ keys: some Collection<RecordKey>) throws {
    let wanted = keys.filter { cache[$0] == nil && !absent.contains($0) }
    guard !wanted.isEmpty else { return }
    let read = try writer.states(wanted, decoded: decoded)
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

  /// Replaces a record's state (written back by ``flush()``) and keeps the key index true.
  func set(_ state: RecordState) throws {
    let key = RecordKey(kind: state.kind, id: state.id)
    let before = try self.state(key).flatMap(SharedKey.init)
    cache[key] = state
    absent.remove(key)
    dirty.insert(key)
    version += 1
    let after = SharedKey(state)
    guard before != after else { return }
    if let before {
      try writer.setMetadata(nil, forKey: ReplicaKeys.keyIndex(before, id: state.id))
      holders[before]?.removeAll { $0 == state.id }
      leftKeys.insert(before)
    }
    if let after {
      try writer.setMetadata("", forKey: ReplicaKeys.keyIndex(after, id: state.id))
      if holders[after] != nil { holders[after]?.append(state.id) }
    }
  }

  /// The records whose own key register holds `key`, by id.
  func holders(of key: SharedKey) throws -> [UUID] {
    if let known = holders[key] { return known }
    let prefix = ReplicaKeys.keyIndex(key)
    let length = prefix.utf8.count
    // A longer key that starts with this one ("a/b" after "a") leaves more than an id.
    let ids = try writer.metadataKeys(withPrefix: prefix).compactMap { ReplicaKeys.trailingID($0, from: length) }
    holders[key] = ids
    return ids
  }

  /// The records merged into `key` (the other ends of its incoming edges).
  func losers(of key: RecordKey) -> [UUID] { mergedInto[key] ?? [] }

  /// Records the reverse of a new edge loser → keeper.
  func noteEdge(_ kind: EntityKind, loser: UUID, keeper: UUID) throws {
    let key = RecordKey(kind: kind, id: keeper)
    guard !(mergedInto[key]?.contains(loser) ?? false) else { return }
    mergedInto[key, default: []].append(loser)
    version += 1
    try writer.setMetadata("", forKey: ReplicaKeys.reverseEdge(kind, keeper: keeper, loser: loser))
  }

  /// Writes the changed states back, in key order.
  func flush() throws {
    guard !dirty.isEmpty else { return }
    let before = try writer.syncInteger(ReplicaKeys.stateWrites)
    let counts = (before: before, after: before + 1)
    try writer.setSyncInteger(counts.after, ReplicaKeys.stateWrites)
    let states = dirty.sorted().compactMap { cache[$0] }
    // Encoding is a pure function of the state, so a large transaction's states are
    // encoded on every core before they are written one by one.
    let texts = states.parallelMap(StateCoding.encode)
    for (state, text) in zip(states, texts) {
      let key = RecordKey(kind: state.kind, id: state.id)
      try writer.setMetadata(text, forKey: ReplicaKeys.state(key))
      decoded?.note(key, state: state, counts: counts)
    }
    dirty = []
  }

  /// Builds the key index of a store whose states were written before it existed, once.
  static func indexKeys(_ writer: any StoreWriter) throws {
    for kind in EntityKind.allCases where kind.schema.identity.isUnique {
      let records = try writer.metadataKeys(withPrefix: ReplicaKeys.statePrefix + kind.rawValue + "/")
        .compactMap { ReplicaKeys.parsePath($0, from: ReplicaKeys.statePrefix.utf8.count) }
      for start in stride(from: 0, to: records.count, by: 1_000) {
        let chunk = Array(records[start..<min(start + 1_000, records.count)])
        let states = try writer.states(chunk)
        for record in chunk {
          guard let state = states[record], let key = SharedKey(state) else { continue }
          try writer.setMetadata("", forKey: ReplicaKeys.keyIndex(key, id: state.id))
        }
      }
    }
  }
}
