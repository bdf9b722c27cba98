public import Foundation
public import Model

/// A place where records of every kind live, read and written in atomic transactions.
///
/// Backends live in their own modules (`PersistenceSQLite`, `PersistenceMemory`) and are
/// opened through ``StoreFactory``. Every backend honours the same semantics, which the
/// conformance suite checks against each:
/// - a write transaction commits all of its changes or, when its body throws, none;
/// - no two live records of a unique kind share a semantic key
///   (``StoreError/uniqueViolation(kind:semanticKey:existing:)``, never a crash);
/// - deletes leave tombstones; every write appends to the change log.
///
/// ```swift
/// let store = try factory.open("memory")
/// try store.write { writer in try writer.insertRecord(record) }
/// let produce = try store.read { try $0.records(.category, semanticKey: "produce") }
/// ```
public protocol Store: AnyObject, Sendable {
  /// Where the store lives, for messages: "memory" or "sqlite:/path/to/file".
  var location: String { get }

  /// The clock that dates change-log entries. Backends take it at creation
  /// (default: the system clock) so tests and simulations can control time.
  var clock: StoreClock { get }

  /// Runs `body` with a consistent view of the store.
  func read<T>(_ body: (any StoreReader) throws -> T) throws -> T

  /// Runs `body` in one atomic write transaction. If `body` throws, nothing it wrote
  /// is kept and the error is rethrown.
  /// - Parameter origin: recorded on every change-log entry the transaction appends.
  /// - Parameter body: the work of the transaction, given its writer.
  func write<T>(origin: ChangeOrigin, _ body: (any StoreWriter) throws -> T) throws -> T

  /// Closes the store's connections, so a file store leaves no write-ahead log behind
  /// (a copy of the file is then a whole backup). Nothing may use the store afterwards.
  func close() throws

  /// Calls `onCommit` after every transaction committed from now on whose changes may
  /// touch `region`, until the result is cancelled or released: the notice under
  /// ``observe(_:value:)``. `onCommit` runs on the committing thread after the commit, so
  /// it must only mark work to do, never read or write the store itself. A file store also
  /// notices commits made by other connections and processes, without knowing what they
  /// touched, and then calls every subscriber.
  func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription
}

extension Store {
  /// Stores without connections (in memory) have nothing to close.
  public func close() throws {}

  /// Runs `body` in one atomic write transaction of local (user) origin.
  public func write<T>(_ body: (any StoreWriter) throws -> T) throws -> T {
    try write(origin: .local, body)
  }
}

/// Reading access inside a transaction.
public protocol StoreReader {
  /// The record with this id, live or tombstoned, or nil.
  func record(_ kind: EntityKind, id: UUID) throws -> Record?
  /// Records whose semantic key equals `semanticKey`, sorted by id.
  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record]
  /// Records matching a query, in its order. The texts its filters compare are put into
  /// NFC first, as stored texts are (`RecordQuery.canonical`).
  func fetch(_ query: RecordQuery) throws -> [Record]
  /// How many records match a query (its limit and offset ignored; texts as ``fetch(_:)``).
  func count(_ query: RecordQuery) throws -> Int
  /// Change-log entries with a sequence number above `sequence`, oldest first, at most `limit`.
  func changes(after sequence: Int64, limit: Int) throws -> [Change]
  /// The sequence number of the newest change-log entry, 0 when the log is empty.
  func latestChangeSequence() throws -> Int64
  /// A value from the store's small key-value metadata table.
  func metadata(forKey key: String) throws -> String?
  /// The keys of the metadata table that start with `prefix`, in byte order: one range
  /// read, for callers that would otherwise look up many keys that mostly do not exist.
  func metadataKeys(withPrefix prefix: String) throws -> [String]
  /// The first `limit` keys (in byte order) that start with `prefix`: for callers that
  /// read a whole range only when it is small.
  func metadataKeys(withPrefix prefix: String, limit: Int) throws -> [String]
  /// The records of one kind with these ids, live or tombstoned, in no particular order;
  /// ids without a record are left out. One read for a page of ids.
  func records(_ kind: EntityKind, ids: [UUID]) throws -> [Record]
  /// Which of these ids name a tombstone of this kind (ids without a record are left
  /// out): what ``records(_:ids:)`` would say of their liveness, without reading them.
  func tombstoned(_ kind: EntityKind, among ids: [UUID]) throws -> Set<UUID>
  /// The values of these metadata keys; keys without a value are left out.
  func metadata(forKeys keys: [String]) throws -> [String: String]
  /// How many live records of `kind` the store holds: `count(RecordQuery(kind))`, which
  /// backends may answer without reading the records (the SQLite backend keeps a counter
  /// per kind, so `counts` costs the same on a store of any size).
  func liveRecordCount(_ kind: EntityKind) throws -> Int
  /// The largest value of an integer field among `kind`'s live records, nil when no live
  /// record holds one: where a new record goes after the last (a category's sort order).
  /// Backends may answer it from the field's index without reading any record.
  /// - Throws: ``StoreError/unknownField(kind:field:)`` or ``StoreError/invalidQuery(kind:field:reason:)``
  ///   when `field` is not an integer field of `kind`.
  func largestInteger(_ kind: EntityKind, field: String) throws -> Int64?
  /// Sync's state of each of these records of `kind` (an opaque text, as
  /// ``StoreWriter/setSyncState(_:key:kind:id:keyUnchanged:)`` stored it); ids without one
  /// are left out.
  func syncStates(_ kind: EntityKind, ids: [UUID]) throws -> [UUID: String]
  /// The records of `kind` whose sync state holds each of these semantic keys, by key, in
  /// no particular order; keys no state holds are left out.
  func syncStateHolders(_ kind: EntityKind, keys: [String]) throws -> [String: [UUID]]
  /// The ids of every record of `kind` that has a sync state, in no particular order.
  func syncStateIDs(_ kind: EntityKind) throws -> [UUID]
  /// Sync's history entries of one record, oldest first (``SyncHistoryRow``).
  func syncHistory(_ kind: EntityKind, id: UUID) throws -> [SyncHistoryRow]
  /// Sync's history entries of every record with a sequence above `sequence`, oldest first,
  /// at most `limit`.
  func syncHistory(after sequence: Int64, limit: Int) throws -> [SyncHistoryRow]
}

extension StoreReader {
  /// One ``record(_:id:)`` per id (backends override it with one read).
  public func records(_ kind: EntityKind, ids: [UUID]) throws -> [Record] {
    try ids.compactMap { try record(kind, id: $0) }
  }

  /// The tombstones among ``records(_:ids:)`` (backends override it with a read of ids only).
  public func tombstoned(_ kind: EntityKind, among ids: [UUID]) throws -> Set<UUID> {
    Set(try records(kind, ids: ids).lazy.filter { !$0.meta.isLive }.map(\.id))
  }

  /// ``count(_:)`` of the kind's live records (backends override it with a counter).
  public func liveRecordCount(_ kind: EntityKind) throws -> Int {
    try count(RecordQuery(kind))
  }

  /// ``largestInteger(_:field:)`` from every live record (backends override it with a
  /// read of the field's index).
  public func largestInteger(_ kind: EntityKind, field: String) throws -> Int64? {
    try StoreError.requireIntegerField(kind, field)
    return try fetch(RecordQuery(kind)).lazy.compactMap { record -> Int64? in
      guard case .integer(let value) = record[field] else { return nil }
      return value
    }.max()
  }

  /// The first `limit` of ``metadataKeys(withPrefix:)`` (backends override it with a
  /// read that stops there).
  public func metadataKeys(withPrefix prefix: String, limit: Int) throws -> [String] {
    Array(try metadataKeys(withPrefix: prefix).prefix(max(0, limit)))
  }

  /// One ``metadata(forKey:)`` per key (backends override it with one read).
  public func metadata(forKeys keys: [String]) throws -> [String: String] {
    var values: [String: String] = [:]
    for key in keys { values[key] = try metadata(forKey: key) }
    return values
  }
}

extension StoreReader {
  /// Live records whose semantic key equals `semanticKey`, sorted by id.
  public func records(_ kind: EntityKind, semanticKey: String) throws -> [Record] {
    try records(kind, semanticKey: semanticKey, includeDeleted: false)
  }

  /// The live record with this id, or nil when it is missing or deleted.
  public func liveRecord(_ kind: EntityKind, id: UUID) throws -> Record? {
    guard let record = try record(kind, id: id), record.meta.isLive else { return nil }
    return record
  }
}

/// Writing access inside a write transaction. Only repositories and sync call these.
public protocol StoreWriter: StoreReader {
  /// Inserts a new record, checking it against its kind's schema. Its texts are stored in
  /// NFC (`Model/Record/canonical`), whatever form the caller gave: every backend writes
  /// the same bytes for canonically equivalent texts.
  /// - Throws: ``StoreError/duplicateID(kind:id:)``, ``StoreError/uniqueViolation(kind:semanticKey:existing:)``,
  ///   ``StoreError/invalidRecord(kind:id:field:reason:)``.
  func insertRecord(_ record: Record) throws
  /// Replaces an existing record's fields and metadata. The change log lists the fields
  /// whose values changed; an update that changes nothing appends nothing.
  /// - Throws: ``StoreError/notFound(kind:id:)`` and the errors of ``insertRecord(_:)``.
  func updateRecord(_ record: Record) throws
  /// ``updateRecord(_:)`` for a caller that holds the record exactly as the store does
  /// (`stored`, read in this transaction and not written since): backends may skip
  /// reading it again.
  func updateRecord(_ record: Record, replacing stored: Record) throws
  /// Marks a record deleted at `date`. Tombstoning a tombstone changes nothing.
  /// - Throws: ``StoreError/notFound(kind:id:)``.
  func tombstoneRecord(_ kind: EntityKind, id: UUID, at date: Date) throws
  /// Sets (or with nil removes) a value in the store's key-value metadata table.
  func setMetadata(_ value: String?, forKey key: String) throws
  /// Sets (or with nil removes) sync's state of a record: an opaque text kept beside the
  /// record's row, indexed by the semantic key the state holds (`key`, nil for none), so
  /// ``StoreReader/syncStateHolders(_:keys:)`` finds the records that share a key whatever
  /// the rows show. Not logged: sync writes it with the rows it derives from it.
  /// - Parameter text: the state, or nil to remove it.
  /// - Parameter key: the semantic key the state holds, nil for none.
  /// - Parameter kind: the record's kind.
  /// - Parameter id: the record's id.
  /// - Parameter keyUnchanged: the caller knows that the state stored for this record, if
  ///   there is one, holds `key` already, so a backend may leave the key's index as it is
  ///   (SQLite writes an index entry again for every column an update sets, even to the
  ///   value it held). False is always correct.
  func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID, keyUnchanged: Bool) throws
  /// Appends an entry to sync's history of a record and drops that record's oldest entries
  /// beyond the newest `keepingPerRecord` (at least 1). Not logged, like the state.
  /// - Returns: whether entries of the record were dropped.
  @discardableResult
  func appendSyncHistory(_ kind: EntityKind, id: UUID, text: String, keepingPerRecord: Int) throws -> Bool
  /// Drops every history entry whose sequence lies `total` or more below the newest one:
  /// at most `total` entries stay, the oldest go first.
  /// - Returns: the records that lost entries, each once, in no particular order.
  @discardableResult
  func trimSyncHistory(keeping total: Int) throws -> [SyncHistoryRecord]
  /// Runs `body` with change-log entries marked with `origin` instead of the
  /// transaction's own, e.g. for the changes sync derives while importing.
  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T
}

extension StoreWriter {
  /// ``setSyncState(_:key:kind:id:keyUnchanged:)`` for a caller that does not know the
  /// stored state's key.
  public func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID) throws {
    try setSyncState(text, key: key, kind: kind, id: id, keyUnchanged: false)
  }

  /// ``updateRecord(_:)``, reading the stored record again (backends override it).
  public func updateRecord(_ record: Record, replacing stored: Record) throws {
    try updateRecord(record)
  }

  /// Marks a record deleted at `date` by an update of its metadata, the way every backend
  /// does: the change log records it as a delete.
  public func tombstoneRecord(_ kind: EntityKind, id: UUID, at date: Date) throws {
    guard var record = try record(kind, id: id) else { throw StoreError.notFound(kind: kind, id: id) }
    guard record.meta.isLive else { return }
    record.meta.deletedAt = date
    record.meta.updatedAt = date
    try updateRecord(record)
  }
}
