import Foundation
import Model
import Persistence

/// One transaction over a ``MemoryState`` copy, with an undo log for rollback.
final class MemoryTransaction: StoreWriter {
  var state: MemoryState
  private var origin: ChangeOrigin
  private let now: Date
  private var undo: [(inout MemoryState) -> Void] = []
  /// What this transaction wrote, for the commit notice.
  private(set) var touched = StoreRegion()

  init(state: MemoryState, origin: ChangeOrigin, now: Date) {
    self.state = state
    self.origin = origin
    self.now = now
  }

  func rollback() {
    for step in undo.reversed() { step(&state) }
    undo.removeAll()
  }

  // MARK: Reading

  func record(_ kind: EntityKind, id: UUID) throws -> Record? {
    state.records[RecordAddress(kind: kind, id: id)]
  }

  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record] {
    let ids = state.keyIndex[KeyAddress(kind: kind, key: semanticKey)] ?? []
    return ids.compactMap { state.records[RecordAddress(kind: kind, id: $0)] }
      .filter { includeDeleted || $0.meta.isLive }
      .sorted { $0.id.sortsBeforeAsText($1.id) }
  }

  func fetch(_ query: RecordQuery) throws -> [Record] {
    let query = query.canonical
    try query.validate()
    let matching = matchingRecords(query).sorted(by: query.areInIncreasingOrder)
    let start = min(max(0, query.offset), matching.count)
    let end = query.limit.map { start + min(max(0, $0), matching.count - start) } ?? matching.count
    return Array(matching[start..<end])
  }

  func count(_ query: RecordQuery) throws -> Int {
    let query = query.canonical
    try query.validate()
    return matchingRecords(query).count
  }

  /// The records of the query's kind that match its filters, in no order. A query with a
  /// `.hasElement` filter reads the records that hold the element (``MemoryState/elementIndex``).
  private func matchingRecords(_ query: RecordQuery) -> [Record] {
    let candidates = query.filters.lazy.compactMap { filter -> Set<UUID>? in
      guard case .hasElement(let field, let element) = filter else { return nil }
      return self.state.elementIndex[ElementAddress(kind: query.kind, field: field, element: element)] ?? []
    }.first
    return (candidates ?? state.idsByKind[query.kind] ?? []).compactMap { state.records[RecordAddress(kind: query.kind, id: $0)] }
      .filter(query.matches)
  }

  func changes(after sequence: Int64, limit: Int) throws -> [Change] {
    // Sequence numbers are 1...count, so entry n sits at index n - 1.
    let start = Int(max(0, min(sequence, Int64(state.changes.count))))
    let end = start + min(max(0, limit), state.changes.count - start)
    return Array(state.changes[start..<end])
  }

  func latestChangeSequence() throws -> Int64 { Int64(state.changes.count) }

  func metadata(forKey key: String) throws -> String? { state.metadata[key] }

  func metadataKeys(withPrefix prefix: String) throws -> [String] {
    state.metadata.keys.filter { $0.utf8.starts(with: prefix.utf8) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  func syncStates(_ kind: EntityKind, ids: [UUID]) throws -> [UUID: String] {
    var texts: [UUID: String] = [:]
    for id in ids { texts[id] = state.syncStates[RecordAddress(kind: kind, id: id)]?.text }
    return texts
  }

  func syncStateHolders(_ kind: EntityKind, keys: [String]) throws -> [String: [UUID]] {
    var holders: [String: [UUID]] = [:]
    for key in keys {
      if let ids = state.syncStateKeys[KeyAddress(kind: kind, key: key)], !ids.isEmpty { holders[key] = Array(ids) }
    }
    return holders
  }

  func syncStateIDs(_ kind: EntityKind) throws -> [UUID] {
    state.syncStates.keys.filter { $0.kind == kind }.map(\.id)
  }

  func syncHistory(_ kind: EntityKind, id: UUID) throws -> [SyncHistoryRow] {
    (state.history.byRecord[RecordAddress(kind: kind, id: id)] ?? []).compactMap { state.history.rows[$0] }
  }

  func syncHistory(after sequence: Int64, limit: Int) throws -> [SyncHistoryRow] {
    Array(state.history.rows.keys.filter { $0 > sequence }.sorted().prefix(max(0, limit))).compactMap { state.history.rows[$0] }
  }

  // MARK: Writing

  func insertRecord(_ record: Record) throws {
    let record = record.canonical
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    let address = RecordAddress(kind: record.kind, id: record.id)
    guard state.records[address] == nil else { throw StoreError.duplicateID(kind: record.kind, id: record.id) }
    try checkUnique(record)
    put(record, at: address)
    appendChange(record, .insert, fields: record.fieldNames)
  }

  func updateRecord(_ record: Record) throws {
    let record = record.canonical
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    let address = RecordAddress(kind: record.kind, id: record.id)
    guard let old = state.records[address] else { throw StoreError.notFound(kind: record.kind, id: record.id) }
    guard old != record else { return }
    try checkUnique(record)
    put(record, at: address)
    let deleted = old.meta.isLive && !record.meta.isLive
    appendChange(record, deleted ? .delete : .update, fields: record.changedFields(comparedTo: old))
  }

  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T {
    let saved = self.origin
    self.origin = origin
    defer { self.origin = saved }
    return try body()
  }

  func setMetadata(_ value: String?, forKey key: String) throws {
    let old = state.metadata[key]
    state.metadata[key] = value
    touched.metadata = true
    undo.append { $0.metadata[key] = old }
  }

  /// Keeps the index of keys true whatever `keyUnchanged` says.
  func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID, keyUnchanged: Bool) throws {
    let address = RecordAddress(kind: kind, id: id)
    let old = state.syncStates[address]
    touched.metadata = true
    Self.putSyncState(text.map { SyncStateEntry(key: key, text: $0) }, at: address, in: &state)
    undo.append { state in MemoryTransaction.putSyncState(old, at: address, in: &state) }
  }

  func appendSyncHistory(_ kind: EntityKind, id: UUID, text: String, keepingPerRecord: Int) throws -> Bool {
    let row = state.history.append(kind, id: id, text: text)
    let sequences = state.history.byRecord[RecordAddress(kind: kind, id: id)] ?? []
    let removed = state.history.remove(sequences.dropLast(max(1, keepingPerRecord)))
    undo.append { state in
      _ = state.history.remove([row.sequence])
      state.history.restore(removed)
      state.history.next = row.sequence
    }
    return !removed.isEmpty
  }

  func trimSyncHistory(keeping total: Int) throws -> [SyncHistoryRecord] {
    let cutoff = state.history.next - 1 - Int64(max(0, total))
    let low = state.history.low
    guard cutoff >= low else { return [] }
    let removed = state.history.remove(low...cutoff)
    state.history.low = cutoff + 1
    undo.append { state in
      state.history.restore(removed)
      state.history.low = low
    }
    return Array(Set(removed.map { SyncHistoryRecord(kind: $0.kind, id: $0.id) }))
  }

  /// Replaces a record's sync state and keeps the index of the keys states hold true.
  private static func putSyncState(_ entry: SyncStateEntry?, at address: RecordAddress, in state: inout MemoryState) {
    if let oldKey = state.syncStates[address]?.key {
      state.syncStateKeys[KeyAddress(kind: address.kind, key: oldKey)]?.remove(address.id)
    }
    if let key = entry?.key { state.syncStateKeys[KeyAddress(kind: address.kind, key: key), default: []].insert(address.id) }
    state.syncStates[address] = entry
  }

  private func checkUnique(_ record: Record) throws {
    guard record.kind.schema.identity.isUnique, record.meta.isLive, let key = record.semanticKey else { return }
    let ids = state.keyIndex[KeyAddress(kind: record.kind, key: key)] ?? []
    for id in ids where id != record.id {
      if let other = state.records[RecordAddress(kind: record.kind, id: id)], other.meta.isLive {
        throw StoreError.uniqueViolation(kind: record.kind, semanticKey: key, existing: id)
      }
    }
  }

  private func put(_ record: Record, at address: RecordAddress) {
    let old = state.records[address]
    if let oldKey = old?.semanticKey { state.keyIndex[KeyAddress(kind: address.kind, key: oldKey)]?.remove(address.id) }
    if let key = record.semanticKey { state.keyIndex[KeyAddress(kind: address.kind, key: key), default: []].insert(address.id) }
    if let old { state.indexElements(of: old, adding: false) }
    state.indexElements(of: record, adding: true)
    state.records[address] = record
    state.idsByKind[address.kind, default: []].insert(address.id)
    touched.kinds.insert(address.kind)
    undo.append { state in
      if let key = record.semanticKey { state.keyIndex[KeyAddress(kind: address.kind, key: key)]?.remove(address.id) }
      state.indexElements(of: record, adding: false)
      if let old {
        if let oldKey = old.semanticKey {
          state.keyIndex[KeyAddress(kind: address.kind, key: oldKey), default: []].insert(address.id)
        }
        state.indexElements(of: old, adding: true)
        state.records[address] = old
      } else {
        state.records[address] = nil
        state.idsByKind[address.kind]?.remove(address.id)
      }
    }
  }

  /// Appends the entry of a write of `record`; `fields` is only computed for a logged origin.
  private func appendChange(_ record: Record, _ operation: ChangeOperation, fields: @autoclosure () -> [String]) {
    guard origin.isLogged else { return }
    let change = Change(
      sequence: Int64(state.changes.count + 1), kind: record.kind, id: record.id, operation: operation,
      fields: fields(), origin: origin, timestamp: now
    )
    state.changes.append(change)
    undo.append { $0.changes.removeLast() }
  }
}
