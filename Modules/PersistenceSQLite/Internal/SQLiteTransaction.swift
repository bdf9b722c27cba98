import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// `SQLITE_TRANSIENT` (the importer cannot see the macro): SQLite copies the bound value.
private nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One read or write transaction on a GRDB connection. Hot paths use cached statements.
final class SQLiteTransaction: StoreWriter {
  let db: Database
  private(set) var origin: ChangeOrigin
  let now: Date

  /// Whether this transaction keeps ``lastRead``: only when no one else runs SQL on the
  /// connection while it lives (the store's own transactions, not the migration's writer).
  private let keepsLastRead: Bool

  /// The record this transaction last read by id (or as the only record of a key) and
  /// has not written since: repositories read a record, change it and save it, and saving
  /// reads it again and the update once more for its change log; this serves the second
  /// and third reads.
  private var lastRead: Record?

  init(db: Database, origin: ChangeOrigin, now: Date, keepsLastRead: Bool = false) {
    self.db = db
    self.origin = origin
    self.now = now
    self.keepsLastRead = keepsLastRead
  }

  // MARK: Reading

  func record(_ kind: EntityKind, id: UUID) throws -> Record? {
    if let lastRead, lastRead.id == id, lastRead.kind == kind { return lastRead }
    let layout = TableLayout.of(kind)
    let found = try select(layout.selectByIDSQL, id.storageText, layout).first
    if keepsLastRead, let found { lastRead = found }
    return found
  }

  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record] {
    let layout = TableLayout.of(kind)
    guard let sql = includeDeleted ? layout.selectByKeySQL : layout.selectLiveByKeySQL else { return [] }
    let found = try select(sql, semanticKey, layout)
    if keepsLastRead, found.count == 1 { lastRead = found[0] }
    return found
  }

  /// The records a cached SELECT of a kind's columns with one text argument finds, bound
  /// and stepped on the SQLite statement itself (see ``TableLayout/record(from:)``).
  private func select(_ sql: String, _ argument: String, _ layout: TableLayout) throws -> [Record] {
    let statement = try db.cachedStatement(sql: sql)
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    return try argument.withCString { text in
      sqlite3_bind_text(handle, 1, text, -1, nil)
      // The text is bound without a copy: unbind it before it goes away.
      defer { sqlite3_clear_bindings(handle) }
      return try rows(of: statement, layout)
    }
  }

  /// Steps a SELECT of a kind's columns whose arguments are bound and decodes every row,
  /// then resets the statement.
  func rows(of statement: Statement, _ layout: TableLayout) throws -> [Record] {
    let handle = statement.sqliteStatement
    defer { sqlite3_reset(handle) }
    var records: [Record] = []
    while true {
      let code = sqlite3_step(handle)
      switch code {
      case SQLITE_ROW: records.append(try layout.record(from: handle))
      case SQLITE_DONE: return records
      default: throw failure(code, statement)
      }
    }
  }

  func fetch(_ query: RecordQuery) throws -> [Record] {
    try query.validate()
    let layout = TableLayout.of(query.kind)
    var sql = SQLQuery(query, indexedTables: try sideTables(for: query))
    let order = (query.sort.map { "\($0.field.quotedDatabaseIdentifier) \($0.ascending ? "ASC" : "DESC")" } + ["id ASC"])
      .joined(separator: ", ")
    var text = "SELECT \(layout.selectColumns) FROM \(layout.table.quotedDatabaseIdentifier) WHERE \(sql.whereClause) ORDER BY \(order)"
    if query.limit != nil || query.offset > 0 {
      text += " LIMIT ? OFFSET ?"
      sql.arguments.append((query.limit.map { max(0, $0) } ?? -1).databaseValue)
      sql.arguments.append(max(0, query.offset).databaseValue)
    }
    let statement = try db.cachedStatement(sql: text)
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    defer { sqlite3_clear_bindings(handle) }
    bind(sql.arguments, to: handle)
    return try rows(of: statement, layout)
  }

  func count(_ query: RecordQuery) throws -> Int {
    try query.validate()
    let sql = SQLQuery(query, indexedTables: try sideTables(for: query))
    let statement = try db.cachedStatement(
      sql: "SELECT COUNT(*) FROM \(query.kind.rawValue.quotedDatabaseIdentifier) WHERE \(sql.whereClause)"
    )
    return try Int.fetchOne(statement, arguments: StatementArguments(sql.arguments)) ?? 0
  }

  /// Change-log entries after `sequence`, decoded on the SQLite statement itself (sync
  /// pages through the whole log: GRDB's `Row` costs more than the step).
  func changes(after sequence: Int64, limit: Int) throws -> [Change] {
    let statement = try db.cachedStatement(
      sql:
        "SELECT sequence, kind, id, operation, fields, origin, timestamp FROM forager_changes WHERE sequence > ? ORDER BY sequence LIMIT ?"
    )
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    sqlite3_bind_int64(handle, 1, sequence)
    sqlite3_bind_int64(handle, 2, Int64(max(0, limit)))
    var changes: [Change] = []
    changes.reserveCapacity(min(max(0, limit), 1_024))
    // Entries repeat a few kinds, operations, field lists and origins (a thousand inserts
    // of templates): each distinct text is decoded once.
    var kinds = RepeatedText<EntityKind>(), operations = RepeatedText<ChangeOperation>()
    var fieldLists = RepeatedText<[String]>(), origins = RepeatedText<String>()
    while true {
      let code = sqlite3_step(handle)
      guard code == SQLITE_ROW else {
        guard code == SQLITE_DONE else { throw failure(code, statement) }
        return changes
      }
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

  /// A text column of the current row, or nil when it is NULL.
  private static func text(_ handle: SQLiteStatement, _ column: Int32) -> String? {
    guard sqlite3_column_type(handle, column) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func latestChangeSequence() throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(sequence), 0) FROM forager_changes")) ?? 0
  }

  /// Sync reads several keys for every record it touches: bound and stepped on the
  /// SQLite statement itself.
  func metadata(forKey key: String) throws -> String? {
    try textRows("SELECT value FROM forager_metadata WHERE key = ?", binding: [Array(key.utf8)]) { Self.text($0, 0) }.first
  }

  /// Steps a cached statement with its parameters bound to these UTF-8 texts (copied) and
  /// returns what `row` makes of each row it gives a value for.
  private func textRows<T>(_ sql: String, binding texts: [[UInt8]], _ row: (SQLiteStatement) -> T?) throws -> [T] {
    let statement = try db.cachedStatement(sql: sql)
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (index, text) in texts.enumerated() {
      text.withUnsafeBufferPointer { Self.bindText($0, to: handle, at: Int32(index + 1)) }
    }
    var values: [T] = []
    while true {
      let code = sqlite3_step(handle)
      guard code == SQLITE_ROW else {
        guard code == SQLITE_DONE else { throw failure(code, statement) }
        return values
      }
      if let value = row(handle) { values.append(value) }
    }
  }

  /// One SELECT for the whole page: the ids are bound as one JSON array and read back by
  /// `json_each`, so the statement is the same (and cached) whatever their number.
  func records(_ kind: EntityKind, ids: [UUID]) throws -> [Record] {
    guard !ids.isEmpty else { return [] }
    let layout = TableLayout.of(kind)
    let sql = "SELECT \(layout.selectColumns) FROM \(layout.table.quotedDatabaseIdentifier) WHERE id IN (SELECT value FROM json_each(?))"
    return try select(sql, Self.jsonArray(ids.lazy.map(\.storageText)), layout)
  }

  func tombstoned(_ kind: EntityKind, among ids: [UUID]) throws -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    let table = TableLayout.of(kind).table.quotedDatabaseIdentifier
    return Set(
      try textRows(
        "SELECT id FROM \(table) WHERE deletedAt IS NOT NULL AND id IN (SELECT value FROM json_each(?))",
        binding: [Array(Self.jsonArray(ids.lazy.map(\.storageText)).utf8)]
      ) { UUID(storageColumn: $0, 0) })
  }

  func metadata(forKeys keys: [String]) throws -> [String: String] {
    guard !keys.isEmpty else { return [:] }
    let pairs = try textRows(
      "SELECT key, value FROM forager_metadata WHERE key IN (SELECT value FROM json_each(?))",
      binding: [Array(Self.jsonArray(keys).utf8)]
    ) { handle -> (String, String)? in
      guard let key = Self.text(handle, 0), let value = Self.text(handle, 1) else { return nil }
      return (key, value)
    }
    return Dictionary(pairs) { first, _ in first }
  }

  /// A JSON array of strings, escaped as JSON requires.
  private static func jsonArray(_ strings: some Sequence<String>) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    var first = true
    for string in strings {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      bytes.append(UInt8(ascii: "\""))
      for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          bytes.append(UInt8(ascii: "\\"))
          bytes.append(byte)
        case 0..<0x20:
          bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
        default:
          bytes.append(byte)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(UInt8(ascii: "]"))
    return String(decoding: bytes, as: UTF8.self)
  }

  func metadataKeys(withPrefix prefix: String) throws -> [String] {
    // The keys in [prefix, prefix + U+10FFFF…): a range on the primary key. Keys sort by
    // their bytes (BINARY collation), and no UTF-8 text continues a prefix with 0xF4 0x90.
    let lower = Array(prefix.utf8)
    return try textRows(
      "SELECT key FROM forager_metadata WHERE key >= ? AND key < ? ORDER BY key", binding: [lower, lower + [0xF4, 0x90]]
    ) { Self.text($0, 0) }
  }

  /// The side tables (list elements, text search) present in this file, read once per
  /// transaction and only for queries that can use them (a file a migration is writing
  /// may not have them yet).
  private var presentSideTables: Set<String>?

  private func sideTables(for query: RecordQuery) throws -> Set<String> {
    guard query.filters.contains(where: \.usesSideTable) else { return [] }
    if let presentSideTables { return presentSideTables }
    let names = try String.fetchAll(
      db,
      sql:
        "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE '%\\_elements' ESCAPE '\\' OR name LIKE '%\\_search' ESCAPE '\\')"
    )
    let present = Set(names)
    presentSideTables = present
    return present
  }

  // MARK: Writing

  func insertRecord(_ record: Record) throws {
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    lastRead = nil
    let layout = TableLayout.of(record.kind)
    do {
      try run(layout.insertSQL, layout.arguments(for: record))
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      throw try constraintError(for: record, error, inserting: true)
    }
    try appendChange(record, .insert, fields: record.fields.keys.sorted())  // a record holds no nulls
  }

  func updateRecord(_ record: Record) throws {
    try record.validateAgainstSchema()
    if origin.checksSemanticKeys { try record.validateSemanticKey() }
    guard let old = try self.record(record.kind, id: record.id) else {
      throw StoreError.notFound(kind: record.kind, id: record.id)
    }
    try write(record, over: old)
  }

  /// ``updateRecord(_:)`` for a caller that has just read the stored record (`old`), such
  /// as the dedup step's keepers: the same validation, write and change-log entry,
  /// without reading it again.
  func updateRecord(_ record: Record, replacing old: Record) throws {
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
    let deleted = old.meta.isLive && !record.meta.isLive
    try appendChange(record, deleted ? .delete : .update, fields: fields)
  }

  func tombstoneRecord(_ kind: EntityKind, id: UUID, at date: Date) throws {
    guard var record = try record(kind, id: id) else { throw StoreError.notFound(kind: kind, id: id) }
    guard record.meta.isLive else { return }
    record.meta.deletedAt = date
    record.meta.updatedAt = date
    try updateRecord(record)
  }

  func withOrigin<T>(_ origin: ChangeOrigin, _ body: () throws -> T) rethrows -> T {
    let saved = self.origin
    self.origin = origin
    defer { self.origin = saved }
    return try body()
  }

  func setMetadata(_ value: String?, forKey key: String) throws {
    if let value {
      // An upsert changes the value in place; REPLACE would delete and re-insert the row
      // and its key's index entry. Sync sets a record's stamps each time it changes.
      let statement = try statement(
        &metadataStatement,
        "INSERT INTO forager_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      )
      try run(statement, [key.databaseValue, value.databaseValue])
    } else {
      try run(db.cachedStatement(sql: "DELETE FROM forager_metadata WHERE key = ?"), [key.databaseValue])
    }
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

  /// The change-log INSERT, looked up once per transaction (a recipe writes 21 entries).
  private var changeStatement: Statement?
  /// The metadata upsert, likewise (sync sets stamps for every record it writes).
  private var metadataStatement: Statement?

  /// The statement kept in `slot`, looked up in the connection's cache the first time:
  /// that lookup hashes the whole SQL text.
  private func statement(_ slot: inout Statement?, _ sql: String) throws -> Statement {
    if let slot { return slot }
    let statement = try db.cachedStatement(sql: sql)
    slot = statement
    return statement
  }

  func appendChange(_ record: Record, _ operation: ChangeOperation, fields: [String]) throws {
    let statement = try statement(
      &changeStatement, "INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp) VALUES (?, ?, ?, ?, ?, ?)"
    )
    try run(
      statement,
      [
        record.kind.rawValue.databaseValue, record.id.storageText.databaseValue, operation.rawValue.databaseValue,
        FieldValue.jsonArray(fields).databaseValue, origin.rawValue.databaseValue,
        now.timeIntervalSinceReferenceDate.databaseValue,
      ]
    )
  }

  /// Runs a cached INSERT or UPDATE with `values` bound to its parameters 1…n, on the
  /// SQLite statement itself. GRDB's `execute(arguments:)` first copies the values into
  /// `StatementArguments` and checks them, about as much work again as the INSERT; the
  /// rest of its bookkeeping serves transaction observers, and no store connection ever
  /// has one.
  private func run(_ sql: String, _ values: [DatabaseValue]) throws {
    try run(db.cachedStatement(sql: sql), values)
  }

  private func run(_ statement: Statement, _ values: [DatabaseValue]) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    bind(values, to: handle)
    var code = sqlite3_step(handle)
    while code == SQLITE_ROW { code = sqlite3_step(handle) }
    guard code == SQLITE_DONE else { throw failure(code, statement) }
  }

  /// Binds values to a reset statement's parameters 1…n (text and blobs are copied).
  /// Text is bound from the string's own UTF-8 with its length: GRDB's binding first
  /// copies each string into a new C string, an allocation per value.
  private func bind(_ values: [DatabaseValue], to handle: SQLiteStatement) {
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      switch value.storage {
      case .null: sqlite3_bind_null(handle, position)
      case .int64(let number): sqlite3_bind_int64(handle, position, number)
      case .double(let number): sqlite3_bind_double(handle, position, number)
      case .string(var text): text.withUTF8 { Self.bindText($0, to: handle, at: position) }
      case .blob: _ = value.bind(to: handle, at: position)
      }
    }
  }

  /// Binds UTF-8 bytes (copied) as text. An empty buffer may have no address, and a null
  /// pointer would bind NULL, not the empty text.
  private static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to handle: SQLiteStatement, at position: Int32) {
    guard let start = bytes.baseAddress, !bytes.isEmpty else {
      sqlite3_bind_text(handle, position, "", 0, sqliteTransient)
      return
    }
    start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
      _ = sqlite3_bind_text(handle, position, $0, Int32(bytes.count), sqliteTransient)
    }
  }

  /// The error of a statement that failed with `code`, with SQLite's message.
  private func failure(_ code: Int32, _ statement: Statement) -> DatabaseError {
    Self.failure(code, statement, in: db)
  }

  /// The error of a statement stepped on `db` that failed with `code`, with SQLite's
  /// message; read before the statement is reset.
  static func failure(_ code: Int32, _ statement: Statement, in db: Database) -> DatabaseError {
    let extended = sqlite3_extended_errcode(db.sqliteConnection)
    let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
    return DatabaseError(
      resultCode: ResultCode(rawValue: extended & 0xFF == code & 0xFF ? extended : code), message: message, sql: statement.sql
    )
  }
}
