import Foundation
import Model
import Persistence

/// The states of the records one transaction works on, read once and written back at the
/// end, the reverse edges of the store, and the index of each state's own key.
final class StateStore {
  let writer: any StoreWriter
  /// What this transaction knows of each record it asked about: its state (nil when the
  /// store has none), and whether the state is to be written back. One entry per record,
  /// so that reading, replacing and flushing a state each look the record up once (a
  /// sync page asks about tens of thousands of records, and a lookup in tables that large
  /// is a cache miss more often than not).
  private var entries: [RecordKey: Entry] = [:]
  /// The records set in this transaction, each once, in the order they were first set.
  private var dirty: [RecordKey] = []

  private struct Entry {
    var state: RecordState?
    var isDirty = false
    /// The key the state is indexed by (`SharedKey`) changed in this transaction: the
    /// store's index of each stored state's key is written for these only (``flush()``).
    var movedKey = false
    /// The state as the store holds it (read, or last written back): what the history
    /// entry of the next write back is computed from (``HistoryEntry``).
    var stored: RecordState?

    /// Sets the state to write back; returns whether it was not to be written before.
    mutating func replace(with state: RecordState, movingKey: Bool) -> Bool {
      self.state = state
      movedKey = movedKey || movingKey
      defer { isDirty = true }
      return !isDirty
    }

    /// Marks the state written; returns it, whether its key register changed since it
    /// was read, and the history entry of the change from the state stored before.
    mutating func flushed(at time: Date) -> (state: RecordState, movedKey: Bool, history: HistoryEntry?)? {
      defer { (isDirty, movedKey, stored) = (false, false, state) }
      return state.map { ($0, movedKey, HistoryEntry(from: stored, to: $0, at: time)) }
    }
  }

  /// Reverse edges keeper → losers: all of them, read by one range scan when the
  /// transaction starts while the store holds at most ``eagerEdgeLimit`` (merged records
  /// are few in most kitchens), or else each keeper's when it is first asked about, so a
  /// store with many merges pays for the records a transaction touches, not for every edge.
  private var mergedInto: [RecordKey: [UUID]] = [:]
  /// Whether ``mergedInto`` holds every reverse edge of the store.
  private let holdsEveryEdge: Bool
  /// How many reverse edges the store holds (`sync.edgeCount`), read once per transaction.
  private var edgeCount: Int
  /// The most reverse edges a transaction reads at its start.
  static let defaultEagerEdgeLimit = 4_096
  #if DEBUG
    /// Tests set a lower limit to run a sync with the edges read keeper by keeper.
    @TaskLocal package static var eagerEdgeLimit = defaultEagerEdgeLimit
  #else
    static let eagerEdgeLimit = defaultEagerEdgeLimit
  #endif
  /// The holders of the keys read in this transaction, by key, in keeper order; kept up
  /// to date by ``set(_:)`` (the store indexes the key of each state it is given).
  private var holders: [SharedKey: [UUID]] = [:]
  /// Keys a state left in this transaction (its indexed key changed): the records still
  /// holding such a key may no longer be one entity with it.
  private(set) var leftKeys: Set<SharedKey> = []
  /// Counts the changes to states and edges in this transaction, so what was computed from
  /// them (`IdentityComponents`) knows when to compute again.
  private(set) var version = 0

  /// The states the sync this transaction belongs to has written (``DecodedStates``).
  private let decoded: DecodedStates?
  /// When this transaction writes, on the device's clock: the time of its history entries.
  private let time: Date

  init(_ writer: any StoreWriter, decoded: DecodedStates? = nil, time: Date = Date()) throws {
    self.writer = writer
    self.decoded = decoded
    self.time = time
    // The count is written with each new edge; a store written before it was kept counts
    // its edges once, here.
    let counted = try writer.metadata(forKey: ReplicaKeys.edgeCount).flatMap(Int.init)
    holdsEveryEdge = (counted ?? 0) <= Self.eagerEdgeLimit
    edgeCount = counted ?? 0
    guard holdsEveryEdge else { return }
    let keys = try writer.metadataKeys(withPrefix: ReplicaKeys.edgePrefix)
    for key in keys {
      if let (keeper, loser) = Self.reverseEdge(key) { mergedInto[keeper, default: []].append(loser) }
    }
    edgeCount = keys.count
    if counted != keys.count { try writer.setMetadata(String(keys.count), forKey: ReplicaKeys.edgeCount) }
  }

  /// The keeper and loser a reverse-edge entry `sync.edge/<kind>/<keeper>/<loser>` names.
  private static func reverseEdge(_ key: String) -> (RecordKey, UUID)? {
    guard let keeper = ReplicaKeys.parsePath(key, from: ReplicaKeys.edgePrefix.utf8.count),
      let loser = ReplicaKeys.trailingID(key, from: key.utf8.count - 36)
    else { return nil }
    return (keeper, loser)
  }

  /// Forgets the holders read so far, after the store's key index was written around this
  /// store (`KeyIndexConversion`).
  func forgetHolders() { holders = [:] }

  /// Reads the states of many records at once (a page of arrivals or of local changes).
  func preload(_ keys: some Collection<RecordKey>) throws {
    let wanted = keys.filter { entries[$0] == nil }
    guard !wanted.isEmpty else { return }
    let read = try writer.states(wanted, decoded: decoded)
    entries.reserveCapacity(entries.count + wanted.count)
    for key in wanted { entries[key] = Entry(state: read[key], stored: read[key]) }
  }

  /// The state of a record, or nil when this replica knows nothing of it.
  func state(_ key: RecordKey) throws -> RecordState? {
    if let entry = entries[key] { return entry.state }
    try preload([key])
    return entries[key]?.state
  }

  /// Replaces a record's state (written back by ``flush()``) and keeps the key index true.
  /// - Returns: whether this is the first time this transaction sets the record's state.
  @discardableResult
  func set(_ state: RecordState) throws -> Bool {
    let key = RecordKey(kind: state.kind, id: state.id)
    let before = try self.state(key).flatMap(SharedKey.init)
    let after = SharedKey(state)
    let moved = before != after
    let firstSet = entries[key, default: Entry()].replace(with: state, movingKey: moved)
    if firstSet { dirty.append(key) }
    version += 1
    guard moved else { return firstSet }
    if let before {
      var ids = try holders(of: before)
      ids.removeAll { $0 == state.id }
      holders[before] = ids
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
    }
    return firstSet
  }

  /// The records whose own state is indexed by `key` (`SharedKey`), by id.
  func holders(of key: SharedKey) throws -> [UUID] {
    if let known = holders[key] { return known }
    try preloadHolders([key])
    return holders[key] ?? []
  }

  /// Reads the holders of many keys at once (those of a page's states).
  func preloadHolders(_ keys: some Collection<SharedKey>) throws {
    let wanted = Set(keys.filter { holders[$0] == nil })
    for (kind, keys) in Dictionary(grouping: wanted, by: \.kind) {
      let read = try writer.syncStateHolders(kind, keys: keys.map(\.key))
      for key in keys { holders[key] = (read[key.key] ?? []).sorted(by: UUID.keeperOrder) }
    }
  }

  /// The keys the states of these records hold, among the states read so far.
  func keys(heldBy records: some Sequence<RecordKey>) -> [SharedKey] {
    records.compactMap { entries[$0]?.state.flatMap(SharedKey.init) }
  }

  /// The records merged into `key` (the other ends of its incoming edges).
  func losers(of key: RecordKey) throws -> [UUID] {
    if let known = mergedInto[key] { return known }
    guard !holdsEveryEdge else { return [] }
    let losers = try writer.metadataKeys(withPrefix: ReplicaKeys.reverseEdgePrefix(of: key)).compactMap { Self.reverseEdge($0)?.1 }
    mergedInto[key] = losers
    return losers
  }

  /// Records the reverse of a new edge loser → keeper.
  func noteEdge(_ kind: EntityKind, loser: UUID, keeper: UUID) throws {
    let key = RecordKey(kind: kind, id: keeper)
    guard try !losers(of: key).contains(loser) else { return }
    mergedInto[key, default: []].append(loser)
    version += 1
    try writer.setMetadata("", forKey: ReplicaKeys.reverseEdge(kind, keeper: keeper, loser: loser))
    edgeCount += 1
    try writer.setMetadata(String(edgeCount), forKey: ReplicaKeys.edgeCount)
  }

  /// Writes the changed states back, in key order, each with the key it holds.
  func flush() throws {
    guard !dirty.isEmpty else { return }
    let before = try writer.syncInteger(ReplicaKeys.stateWrites)
    let counts = (before: before, after: before + 1)
    try writer.setSyncInteger(counts.after, ReplicaKeys.stateWrites)
    let flushed = dirty.sorted().compactMap { key in entries[key]?.flushed(at: time).map { (key: key, written: $0) } }
    let pending = flushed.map { (key: $0.key, state: $0.written.state, movedKey: $0.written.movedKey) }
    // Encoding is a pure function of the state, so a large transaction's states are
    // encoded on every core before they are written one by one.
    let texts = pending.map(\.state).parallelMap(StateCoding.encode)
    for ((key, state, movedKey), text) in zip(pending, texts) {
      try writer.setSyncState(text, key: SharedKey(state)?.key, kind: state.kind, id: state.id, keyUnchanged: !movedKey)
      decoded?.note(key, state: state, counts: counts)
    }
    try writer.appendHistory(flushed.compactMap(\.written.history))
    dirty = []
  }
}
