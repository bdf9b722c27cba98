import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// Writing records: insert, update, tombstone, each with its change-log entry.
extension SQLiteTransaction {
  // MARK: Writing

  func insertRecord(_ record: Record) throws {
    let record = record.canonical
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    lastRead = nil
    let layout = TableLayout.of(record.kind)
    do {
      try run(statements.statement(.insert, record.kind, sql: layout.insertSQL, in: db), layout.arguments(for: record))
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      throw try constraintError(for: record, error, inserting: true)
    }
    if record.meta.isLive { noteLiveChange(record.kind, 1) }
    touched.kinds.insert(record.kind)
    try appendChange(record, .insert, fields: record.fieldNames)
  }

  func updateRecord(_ record: Record) throws {
    let record = record.canonical
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    guard let old = try self.record(record.kind, id: record.id) else {
      throw StoreError.notFound(kind: record.kind, id: record.id)
    }
    try write(record, over: old)
  }

  /// ``updateRecord(_:)`` for a caller that has just read the stored record (`old`), such
  /// as the dedup step's keepers and the sync view's rows: the same validation, write and
  /// change-log entry, without reading it again (debug builds check that it is the stored
  /// record).
  func updateRecord(_ record: Record, replacing old: Record) throws {
    assert((try? self.record(record.kind, id: record.id)) == old, "updateRecord(_:replacing:) given a record other than the stored one")
    let record = record.canonical
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    try write(record, over: old)
  }

  /// The UPDATE of the columns that differ from the stored `old`, and its change-log entry.
  private func write(_ record: Record, over old: Record) throws {
    guard old != record else { return }
    lastRead = nil
    let fields = record.changedFields(comparedTo: old)
    let update = TableLayout.of(record.kind).update(record, from: old, fields: fields)
    do {
      try run(update.sql, update.arguments)
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      throw try constraintError(for: record, error, inserting: false)
    }
    touched.kinds.insert(record.kind)
    if old.meta.isLive != record.meta.isLive { noteLiveChange(record.kind, record.meta.isLive ? 1 : -1) }
    let deleted = old.meta.isLive && !record.meta.isLive
    try appendChange(record, deleted ? .delete : .update, fields: fields)
  }

  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T {
    let saved = self.origin
    self.origin = origin
    defer { self.origin = saved }
    return try body()
  }

  /// Turns a constraint failure into the same typed error the in-memory backend throws,
  /// checking in the same order: duplicate id first, then a live record with the key.
  func constraintError(for record: Record, _ error: DatabaseError, inserting: Bool) throws -> StoreError {
    if inserting, try self.record(record.kind, id: record.id) != nil {
      return .duplicateID(kind: record.kind, id: record.id)
    }
    if let key = record.semanticKey,
      let other = try records(record.kind, semanticKey: key).first(where: { $0.id != record.id })
    {
      return .uniqueViolation(kind: record.kind, semanticKey: key, existing: other.id)
    }
    return .backend(SQLiteStore.describe(error))
  }
}
