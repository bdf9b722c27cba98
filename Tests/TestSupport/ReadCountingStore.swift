import Foundation
public import Model
public import Persistence
import Synchronization

/// A store that counts the records its readers hand out, per kind, around another
/// store: how a test checks that a command reads the records it shows, not every record
/// of a kind (a store of 500 ingredients, `category show` of a category holding 5: a
/// regression to "read them all and filter" reads 500).
///
/// ```swift
/// let store = ReadCountingStore(try TestBackend.sqlite.makeStore())
/// store.reset()
/// _ = try Library(store: store).categories.find("Produce")
/// #expect(store.recordsRead[.category, default: 0] <= 1)
/// ```
public final class ReadCountingStore: Store {
  public let base: any Store
  private let counts = Mutex<[EntityKind: Int]>([:])
  private let issued = Mutex<[RecordQuery]>([])
  private let reads = Mutex<[EntityKind: Int]>([:])

  public init(_ base: any Store) {
    self.base = base
  }

  /// Records handed out per kind since the last ``reset()``.
  public var recordsRead: [EntityKind: Int] { counts.withLock { $0 } }

  /// Calls that read rows, per kind, since the last ``reset()``: each `record`, `records`
  /// and `fetch` is one, however many rows it returns (a page read by ids counts once).
  public var readCalls: [EntityKind: Int] { reads.withLock { $0 } }

  /// The queries (``StoreReader/fetch(_:)``, ``StoreReader/count(_:)``) run since the last ``reset()``.
  public var queries: [RecordQuery] { issued.withLock { $0 } }

  /// The queries no index narrows: without a filter on a key, a to-one reference, a
  /// field marked indexed, searched or looked up by name, each reads through its whole kind inside the
  /// store, whatever it returns.
  public var scans: [RecordQuery] {
    queries.filter { query in
      let schema = query.kind.schema
      func isReference(_ field: String) -> Bool {
        if case .reference = schema.field(named: field)?.type { return true }
        return false
      }
      func indexed(_ filter: RecordFilter) -> Bool {
        switch filter {
        case .equals(let field, _): field == schema.semanticKeyField || schema.field(named: field)?.isIndexed == true || isReference(field)
        case .references(let field, _): isReference(field)
        case .hasPrefix(let field, _): schema.field(named: field)?.isIndexed == true
        case .hasNormalizedName(let field, _): schema.field(named: field)?.isLookedUpByName == true
        case .hasElement: true
        // A substring index sieves needles of three characters or more.
        case .contains(let field, let needle): schema.field(named: field)?.isSearched == true && needle.unicodeScalars.count >= 3
        case .anyOf(let filters): !filters.isEmpty && filters.allSatisfy(indexed)
        }
      }
      return !query.filters.contains(where: indexed)
    }
  }

  /// Starts counting from zero.
  public func reset() {
    counts.withLock { $0 = [:] }
    issued.withLock { $0 = [] }
    reads.withLock { $0 = [:] }
  }

  func count(_ kind: EntityKind, _ number: Int) {
    counts.withLock { $0[kind, default: 0] += number }
    reads.withLock { $0[kind, default: 0] += 1 }
  }

  func record(_ query: RecordQuery) {
    issued.withLock { $0.append(query) }
  }

  public var location: String { base.location }
  public var clock: StoreClock { base.clock }

  public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
    try base.read { try body(CountingWriter(reader: $0, writer: nil, store: self)) }
  }

  public func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription {
    base.subscribe(to: region, onCommit: onCommit)
  }

  public func write<T>(origin: ChangeOrigin, _ body: (any StoreWriter) throws -> T) throws -> T {
    try base.write(origin: origin) { try body(CountingWriter(reader: $0, writer: $0, store: self)) }
  }

  public func close() throws { try base.close() }
}

/// The reader (and, in a write transaction, the writer) of a ``ReadCountingStore``.
private struct CountingWriter: StoreWriter {
  let reader: any StoreReader
  let writer: (any StoreWriter)?
  let store: ReadCountingStore

  private func counted(_ kind: EntityKind, _ records: [Record]) -> [Record] {
    store.count(kind, records.count)
    return records
  }

  func record(_ kind: EntityKind, id: UUID) throws -> Record? {
    let found = try reader.record(kind, id: id)
    store.count(kind, found == nil ? 0 : 1)
    return found
  }

  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record] {
    counted(kind, try reader.records(kind, semanticKey: semanticKey, includeDeleted: includeDeleted))
  }

  func fetch(_ query: RecordQuery) throws -> [Record] {
    store.record(query)
    return counted(query.kind, try reader.fetch(query))
  }

  func count(_ query: RecordQuery) throws -> Int {
    store.record(query)
    return try reader.count(query)
  }
  func liveRecordCount(_ kind: EntityKind) throws -> Int { try reader.liveRecordCount(kind) }
  func changes(after sequence: Int64, limit: Int) throws -> [Change] { try reader.changes(after: sequence, limit: limit) }
  func latestChangeSequence() throws -> Int64 { try reader.latestChangeSequence() }
  func metadata(forKey key: String) throws -> String? { try reader.metadata(forKey: key) }
  func metadataKeys(withPrefix prefix: String) throws -> [String] { try reader.metadataKeys(withPrefix: prefix) }
  func records(_ kind: EntityKind, ids: [UUID]) throws -> [Record] { counted(kind, try reader.records(kind, ids: ids)) }
  func tombstoned(_ kind: EntityKind, among ids: [UUID]) throws -> Set<UUID> { try reader.tombstoned(kind, among: ids) }
  func metadata(forKeys keys: [String]) throws -> [String: String] { try reader.metadata(forKeys: keys) }
  func syncStates(_ kind: EntityKind, ids: [UUID]) throws -> [UUID: String] { try reader.syncStates(kind, ids: ids) }
  func syncStateHolders(_ kind: EntityKind, keys: [String]) throws -> [String: [UUID]] {
    try reader.syncStateHolders(kind, keys: keys)
  }
  func syncStateIDs(_ kind: EntityKind) throws -> [UUID] { try reader.syncStateIDs(kind) }
  func syncHistory(_ kind: EntityKind, id: UUID) throws -> [SyncHistoryRow] { try reader.syncHistory(kind, id: id) }
  func syncHistory(after sequence: Int64, limit: Int) throws -> [SyncHistoryRow] {
    try reader.syncHistory(after: sequence, limit: limit)
  }
  func appendSyncHistory(_ kind: EntityKind, id: UUID, text: String, keepingPerRecord: Int) throws -> Bool {
    try requireWriter().appendSyncHistory(kind, id: id, text: text, keepingPerRecord: keepingPerRecord)
  }
  func trimSyncHistory(keeping total: Int) throws -> [SyncHistoryRecord] { try requireWriter().trimSyncHistory(keeping: total) }

  private func requireWriter() throws -> any StoreWriter {
    guard let writer else { throw StoreError.backend("a read transaction cannot write") }
    return writer
  }

  func insertRecord(_ record: Record) throws { try requireWriter().insertRecord(record) }
  func updateRecord(_ record: Record) throws { try requireWriter().updateRecord(record) }
  func tombstoneRecord(_ kind: EntityKind, id: UUID, at date: Date) throws { try requireWriter().tombstoneRecord(kind, id: id, at: date) }
  func setMetadata(_ value: String?, forKey key: String) throws { try requireWriter().setMetadata(value, forKey: key) }
  func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID, keyUnchanged: Bool) throws {
    try requireWriter().setSyncState(text, key: key, kind: kind, id: id, keyUnchanged: keyUnchanged)
  }

  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T {
    guard let writer else { return try body() }
    return try writer.withOrigin(origin, body)
  }
}

/// A backend whose stores are ``ReadCountingStore``s around in-memory stores, so a
/// ``Session`` (which opens stores by location) can run commands on one: location
/// `counting`. ``last`` is the store it opened last.
public final class ReadCountingBackend: StoreBackend {
  public let scheme = "counting"
  public let summary = "an in-memory store that counts the records read (tests)"
  private let opened = Mutex<ReadCountingStore?>(nil)
  private let makeBase: @Sendable (@escaping StoreClock) throws -> any Store

  /// - Parameter makeBase: the store counted; by default a new in-memory one.
  public init(makeBase: @escaping @Sendable (@escaping StoreClock) throws -> any Store) {
    self.makeBase = makeBase
  }

  public var last: ReadCountingStore? { opened.withLock { $0 } }

  public func open(path: String, clock: @escaping StoreClock) throws -> any Store {
    let store = ReadCountingStore(try makeBase(clock))
    opened.withLock { $0 = store }
    return store
  }
}
