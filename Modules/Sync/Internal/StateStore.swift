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
  /// Keys whose holders changed in this transaction, written back by ``flush()``.
  private var changedKeys: Set<SharedKey> = []
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
      var ids = try holders(of: before)
      ids.removeAll { $0 == state.id }
      holders[before] = ids
      changedKeys.insert(before)
      leftKeys.insert(before)
    }
    if let after {
      var ids = try holders(of: after)
      if let index = ids.firstIndex(where: { !UUID.keeperOrder($0, state.id) }) {
        if ids[index] != state.id { ids.insert(state.id, at: index) }
      } else {
        ids.append(state.id)
      }
      holders[after] = ids
      changedKeys.insert(after)
    }
  }

  /// The records whose own key register holds `key`, by id.
  func holders(of key: SharedKey) throws -> [UUID] {
    if let known = holders[key] { return known }
    try preloadHolders([key])
    return holders[key] ?? []
  }

  /// Reads the holders of many keys at once (those of a page's states).
  func preloadHolders(_ keys: some Collection<SharedKey>) throws {
    let wanted = Array(Set(keys.filter { holders[$0] == nil }))
    guard !wanted.isEmpty else { return }
    let names = wanted.map(ReplicaKeys.keyIndex)
    let lists = try writer.metadata(forKeys: names)
    for (key, name) in zip(wanted, names) { holders[key] = lists[name].map(ReplicaKeys.ids) ?? [] }
  }

  /// The keys the states of these records hold, among the states read so far.
  func keys(heldBy records: some Sequence<RecordKey>) -> [SharedKey] {
    records.compactMap { cache[$0].flatMap(SharedKey.init) }
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
    guard !dirty.isEmpty || !changedKeys.isEmpty else { return }
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
    for key in changedKeys.sorted(by: { ($0.kind.ordinal, $0.key) < ($1.kind.ordinal, $1.key) }) {
      let ids = holders[key] ?? []
      try writer.setMetadata(ids.isEmpty ? nil : ReplicaKeys.text(of: ids), forKey: ReplicaKeys.keyIndex(key))
    }
    changedKeys = []
  }

  /// Builds the key index from the stored states, once: for a store whose states were
  /// written before it existed, or before it was kept one entry per key (format 3 kept an
  /// entry per key and record, `sync.key/<kind>/<key>/<id>`, which is removed).
  static func indexKeys(_ writer: any StoreWriter) throws {
    for key in try writer.metadataKeys(withPrefix: ReplicaKeys.formerKeyPrefix) { try writer.setMetadata(nil, forKey: key) }
    for key in try writer.metadataKeys(withPrefix: ReplicaKeys.keyPrefix) { try writer.setMetadata(nil, forKey: key) }
    for kind in EntityKind.allCases where kind.schema.identity.isUnique {
      let records = try writer.metadataKeys(withPrefix: ReplicaKeys.statePrefix + kind.rawValue + "/")
        .compactMap { ReplicaKeys.parsePath($0, from: ReplicaKeys.statePrefix.utf8.count) }
      var holders: [String: [UUID]] = [:]
      for start in stride(from: 0, to: records.count, by: 1_000) {
        let chunk = Array(records[start..<min(start + 1_000, records.count)])
        let states = try writer.states(chunk)
        for record in chunk {
          guard let state = states[record], let key = SharedKey(state) else { continue }
          holders[key.key, default: []].append(state.id)
        }
      }
      for (key, ids) in holders.sorted(by: { $0.key < $1.key }) {
        try writer.setMetadata(
          ReplicaKeys.text(of: ids.sorted(by: UUID.keeperOrder)), forKey: ReplicaKeys.keyIndex(SharedKey(kind: kind, key: key)))
      }
    }
  }
}
