import Foundation
import Model
import Persistence
import Repositories
import TestSupport

/// A library over a fresh store of the backend, with a fixed clock.
func makeLibrary(_ backend: TestBackend, now: Date = Fixtures.epoch, ownerID: String = RecordMetadata.localOwner) throws -> Library {
  Library(store: try backend.makeStore(), ownerID: ownerID, now: { now })
}

extension Store {
  /// The ids of every record (live and deleted) by kind, from the store's dump.
  func idsByKind() throws -> [EntityKind: Set<UUID>] {
    Dictionary(grouping: try dump(), by: \.kind).mapValues { Set($0.map(\.id)) }
  }

  /// How many inserts the change log holds.
  func insertCount() throws -> Int {
    try changeLog().filter { $0.operation == .insert }.count
  }
}

/// The error a ``FailingStore`` throws.
struct SimulatedStoreFailure: Error, Equatable {
  let insert: Int
}

/// A store that fails the `failingInsert`-th insert of each write transaction, as a full
/// disk would: an honest way to stop a seed midway.
final class FailingStore: Store {
  let base: any Store
  let failingInsert: Int

  init(wrapping base: any Store, failingInsert: Int) {
    self.base = base
    self.failingInsert = failingInsert
  }

  var location: String { "failing:" + base.location }
  var clock: StoreClock { base.clock }

  func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try base.read(body) }

  func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription {
    base.subscribe(to: region, onCommit: onCommit)
  }

  func write<T>(origin: ChangeOrigin, _ body: (any StoreWriter) throws -> T) throws -> T {
    try base.write(origin: origin) { writer in
      try body(FailingWriter(base: writer, failingInsert: failingInsert))
    }
  }
}

private final class FailingWriter: StoreWriter {
  let base: any StoreWriter
  let failingInsert: Int
  var inserts = 0

  init(base: any StoreWriter, failingInsert: Int) {
    self.base = base
    self.failingInsert = failingInsert
  }

  func record(_ kind: EntityKind, id: UUID) throws -> Record? { try base.record(kind, id: id) }
  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record] {
    try base.records(kind, semanticKey: semanticKey, includeDeleted: includeDeleted)
  }
  func fetch(_ query: RecordQuery) throws -> [Record] { try base.fetch(query) }
  func count(_ query: RecordQuery) throws -> Int { try base.count(query) }
  func changes(after sequence: Int64, limit: Int) throws -> [Change] { try base.changes(after: sequence, limit: limit) }
  func latestChangeSequence() throws -> Int64 { try base.latestChangeSequence() }
  func metadata(forKey key: String) throws -> String? { try base.metadata(forKey: key) }
  func metadataKeys(withPrefix prefix: String) throws -> [String] { try base.metadataKeys(withPrefix: prefix) }
  func syncStates(_ kind: EntityKind, ids: [UUID]) throws -> [UUID: String] { try base.syncStates(kind, ids: ids) }
  func syncStateHolders(_ kind: EntityKind, keys: [String]) throws -> [String: [UUID]] { try base.syncStateHolders(kind, keys: keys) }
  func syncStateIDs(_ kind: EntityKind) throws -> [UUID] { try base.syncStateIDs(kind) }
  func syncHistory(_ kind: EntityKind, id: UUID) throws -> [SyncHistoryRow] { try base.syncHistory(kind, id: id) }
  func syncHistory(after sequence: Int64, limit: Int) throws -> [SyncHistoryRow] {
    try base.syncHistory(after: sequence, limit: limit)
  }
  func appendSyncHistory(_ kind: EntityKind, id: UUID, text: String, keepingPerRecord: Int) throws -> Bool {
    try base.appendSyncHistory(kind, id: id, text: text, keepingPerRecord: keepingPerRecord)
  }
  func trimSyncHistory(keeping total: Int) throws -> [SyncHistoryRecord] { try base.trimSyncHistory(keeping: total) }

  func insertRecord(_ record: Record) throws {
    inserts += 1
    if inserts == failingInsert { throw SimulatedStoreFailure(insert: inserts) }
    try base.insertRecord(record)
  }
  func updateRecord(_ record: Record) throws { try base.updateRecord(record) }
  func tombstoneRecord(_ kind: EntityKind, id: UUID, at date: Date) throws { try base.tombstoneRecord(kind, id: id, at: date) }
  func setMetadata(_ value: String?, forKey key: String) throws { try base.setMetadata(value, forKey: key) }
  func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID, keyUnchanged: Bool) throws {
    try base.setSyncState(text, key: key, kind: kind, id: id, keyUnchanged: keyUnchanged)
  }
  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T { try base.withOrigin(origin, body) }
}
