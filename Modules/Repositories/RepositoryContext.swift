import Foundation
import Model
import Persistence

/// What every repository shares: the store, the clock, the owner, and — inside
/// ``Library/transaction(_:)`` — the one open write transaction all work joins.
final class RepositoryContext {
  let store: any Store
  let now: () -> Date
  /// Where the ids of records without a name-based id come from.
  let ids: IDSource
  let ownerID: String
  let origin: ChangeOrigin
  /// Notes what the writes change, for an undo (``ChangeJournal``).
  let journal: ChangeJournal?
  private let writer: (any StoreWriter)?
  /// The open read transaction of an observed query (``LiveQueries``): reads join it,
  /// writes are refused.
  private let reader: (any StoreReader)?

  init(
    store: any Store, now: @escaping () -> Date, ids: IDSource, ownerID: String, origin: ChangeOrigin, journal: ChangeJournal? = nil,
    writer: (any StoreWriter)?, reader: (any StoreReader)? = nil
  ) {
    self.store = store
    self.now = now
    self.ids = ids
    self.ownerID = ownerID
    self.origin = origin
    self.journal = journal
    self.writer = writer
    self.reader = reader
  }

  /// A context that reads inside `reader` and writes nothing.
  static func reading(_ store: any Store, in reader: any StoreReader) -> RepositoryContext {
    RepositoryContext(
      store: store, now: Date.init, ids: .random, ownerID: RecordMetadata.localOwner, origin: .local, writer: nil, reader: reader)
  }

  /// Runs `body` in the open transaction, or in a new atomic one.
  /// - Throws: ``RepositoryError/readOnly`` in a context that only reads.
  func write<T>(_ body: (any StoreWriter) throws -> T) throws -> T {
    if let writer { return try body(writer) }
    if reader != nil { throw RepositoryError.readOnly }
    guard let journal else { return try store.write(origin: origin, body) }
    return try store.write(origin: origin) { writer in try body(JournalingWriter(base: writer, journal: journal)) }
  }

  /// Reads inside the open transaction (seeing its writes), or from a fresh read.
  func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
    if let writer { return try body(writer) }
    if let reader { return try body(reader) }
    return try store.read(body)
  }

  var isBound: Bool { writer != nil }

  func bound(to writer: any StoreWriter) -> RepositoryContext {
    RepositoryContext(store: store, now: now, ids: ids, ownerID: ownerID, origin: origin, journal: journal, writer: writer)
  }

  /// A new random id (from the injected source), for kinds without a name-based id.
  func newID() -> UUID { ids.next() }

  /// Metadata for a record created now.
  func newMeta(id: UUID) -> RecordMetadata {
    RecordMetadata(id: id, createdAt: now(), ownerID: ownerID)
  }
}
