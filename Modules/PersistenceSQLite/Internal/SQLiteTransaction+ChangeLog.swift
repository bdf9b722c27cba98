import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// The change log: appended by every write of a logged origin (``ChangeOrigin/isLogged``),
/// read by sync in pages.
extension SQLiteTransaction {
  /// Change-log entries after `sequence`, decoded on the SQLite statement itself (sync
  /// pages through the whole log: GRDB's `Row` costs more than the step).
  func changes(after sequence: Int64, limit: Int) throws -> [Change] {
    let statement = try db.cachedStatement(
      sql:
        "SELECT sequence, kind, id, operation, fields, origin, timestamp FROM forager_changes WHERE sequence > ? ORDER BY sequence LIMIT ?"
    )
    return try withHandle(statement) { handle in
      sqlite3_bind_int64(handle, 1, sequence)
      sqlite3_bind_int64(handle, 2, Int64(max(0, limit)))
      var changes: [Change] = []
      changes.reserveCapacity(min(max(0, limit), 1_024))
      // Entries repeat a few kinds, operations, field lists and origins (a thousand inserts
      // of templates): each distinct text is decoded once.
      var kinds = RepeatedText<EntityKind>(), operations = RepeatedText<ChangeOperation>()
      var fieldLists = RepeatedText<[String]>(), origins = RepeatedText<String>()
      try step(statement) { handle in
        let number = sqlite3_column_int64(handle, 0)
        guard let kind = kinds.value(handle, 1, EntityKind.init(rawValue:)),
          let id = UUID(storageColumn: handle, 2),
          let operation = operations.value(handle, 3, ChangeOperation.init(rawValue:)),
          let fields = fieldLists.value(handle, 4, FieldValue.decodeJSONArray), let origin = origins.value(handle, 5, { $0 })
        else { throw StoreError.backend("damaged change-log entry \(number)") }
        changes.append(
          Change(
            sequence: number, kind: kind, id: id, operation: operation, fields: fields,
            origin: ChangeOrigin(rawValue: origin), timestamp: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, 6))
          ))
      }
      return changes
    }
  }

  /// Values decoded from one text column, kept with the column's bytes (the last few
  /// distinct texts) so that later rows that repeat them reuse the value.
  private struct RepeatedText<Value> {
    private var recent: [(bytes: [UInt8], value: Value)] = []
    private var next = 0
    private static var capacity: Int { 8 }

    mutating func value(_ handle: SQLiteStatement, _ column: Int32, _ decode: (String) -> Value?) -> Value? {
      guard sqlite3_column_type(handle, column) != SQLITE_NULL, let pointer = sqlite3_column_text(handle, column) else { return nil }
      let text = UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
      for entry in recent where entry.bytes.count == text.count {
        if text.isEmpty || entry.bytes.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp($0, pointer, text.count) == 0 } ?? false }) {
          return entry.value
        }
      }
      guard let value = decode(String(decoding: text, as: UTF8.self)) else { return nil }
      if recent.count < Self.capacity {
        recent.append((Array(text), value))
      } else {
        recent[next] = (Array(text), value)
        next = (next + 1) % Self.capacity
      }
      return value
    }
  }

  func latestChangeSequence() throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(sequence), 0) FROM forager_changes")) ?? 0
  }

  /// Appends the entry of a write of `record`; `fields` is only computed for a logged origin.
  func appendChange(_ record: Record, _ operation: ChangeOperation, fields: @autoclosure () -> [String]) throws {
    guard origin.isLogged else { return }
    let statement = try cachedStatement(
      &changeStatement, "INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp) VALUES (?, ?, ?, ?, ?, ?)"
    )
    try run(
      statement,
      [
        record.kind.rawValue.databaseValue, record.id.storageText.databaseValue, operation.rawValue.databaseValue,
        FieldValue.jsonArray(fields()).databaseValue, origin.rawValue.databaseValue,
        now.timeIntervalSinceReferenceDate.databaseValue,
      ]
    )
  }
}
