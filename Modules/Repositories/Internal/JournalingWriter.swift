import Foundation
import Model
import Persistence

/// A store writer that notes each record in a ``ChangeJournal`` before writing it, and
/// passes everything to the writer it wraps.
struct JournalingWriter: StoreWriter {
  let base: any StoreWriter
  let journal: ChangeJournal

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
  func metadataKeys(withPrefix prefix: String, limit: Int) throws -> [String] { try base.metadataKeys(withPrefix: prefix, limit: limit) }
  func records(_ kind: EntityKind, ids: [UUID]) throws -> [Record] { try base.records(kind, ids: ids) }
  func tombstoned(_ kind: EntityKind, among ids: [UUID]) throws -> Set<UUID> { try base.tombstoned(kind, among: ids) }
  func metadata(forKeys keys: [String]) throws -> [String: String] { try base.metadata(forKeys: keys) }
  func liveRecordCount(_ kind: EntityKind) throws -> Int { try base.liveRecordCount(kind) }
  func largestInteger(_ kind: EntityKind, field: String) throws -> Int64? { try base.largestInteger(kind, field: field) }
  func syncStates(_ kind: EntityKind, ids: [UUID]) throws -> [UUID: String] { try base.syncStates(kind, ids: ids) }
  func syncStateHolders(_ kind: EntityKind, keys: [String]) throws -> [String: [UUID]] { try base.syncStateHolders(kind, keys: keys) }
  func syncStateIDs(_ kind: EntityKind) throws -> [UUID] { try base.syncStateIDs(kind) }
  func syncHistory(_ kind: EntityKind, id: UUID) throws -> [SyncHistoryRow] { try base.syncHistory(kind, id: id) }
  func syncHistory(after sequence: Int64, limit: Int) throws -> [SyncHistoryRow] { try base.syncHistory(after: sequence, limit: limit) }

  func insertRecord(_ record: Record) throws {
    try journal.noteBeforeWrite(record.kind, record.id, reading: base)
    try base.insertRecord(record)
  }
  func updateRecord(_ record: Record) throws {
    try journal.noteBeforeWrite(record.kind, record.id, reading: base)
    try base.updateRecord(record)
  }
  func updateRecord(_ record: Record, replacing stored: Record) throws {
    try journal.noteBeforeWrite(record.kind, record.id, reading: base)
    try base.updateRecord(record, replacing: stored)
  }
  func tombstoneRecord(_ kind: EntityKind, id: UUID, at date: Date) throws {
    try journal.noteBeforeWrite(kind, id, reading: base)
    try base.tombstoneRecord(kind, id: id, at: date)
  }
  func setMetadata(_ value: String?, forKey key: String) throws { try base.setMetadata(value, forKey: key) }
  func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID, keyUnchanged: Bool) throws {
    try base.setSyncState(text, key: key, kind: kind, id: id, keyUnchanged: keyUnchanged)
  }
  func appendSyncHistory(_ kind: EntityKind, id: UUID, text: String, keepingPerRecord: Int) throws -> Bool {
    try base.appendSyncHistory(kind, id: id, text: text, keepingPerRecord: keepingPerRecord)
  }
  func trimSyncHistory(keeping total: Int) throws -> [SyncHistoryRecord] { try base.trimSyncHistory(keeping: total) }
  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T { try base.withOrigin(origin, body) }
}
