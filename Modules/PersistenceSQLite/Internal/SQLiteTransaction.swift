import Foundation
import GRDB
import Model
import Persistence

/// One read or write transaction on a GRDB connection. Hot paths use cached statements.
final class SQLiteTransaction: StoreWriter {
  let db: Database
  private(set) var origin: ChangeOrigin
  let now: Date

  init(db: Database, origin: ChangeOrigin, now: Date) {
    self.db = db
    self.origin = origin
    self.now = now
  }

  // MARK: Reading

  func record(_ kind: EntityKind, id: UUID) throws -> Record? {
    let layout = TableLayout.of(kind)
    let statement = try db.cachedStatement(sql: layout.selectByIDSQL)
    // The cursor's row is a view on the statement: decoded in place, never copied.
    let rows = try Row.fetchCursor(statement, arguments: [id.storageText])
    guard let row = try rows.next() else { return nil }
    return try layout.record(from: row)
  }

  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record] {
    let layout = TableLayout.of(kind)
    guard let sql = includeDeleted ? layout.selectByKeySQL : layout.selectLiveByKeySQL else { return [] }
    let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [semanticKey])
    var records: [Record] = []
    while let row = try rows.next() { records.append(try layout.record(from: row)) }
    return records
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
    let rows = try Row.fetchCursor(db.cachedStatement(sql: text), arguments: StatementArguments(sql.arguments))
    var records: [Record] = []
    while let row = try rows.next() { records.append(try layout.record(from: row)) }
    return records
  }

  func count(_ query: RecordQuery) throws -> Int {
    try query.validate()
    let sql = SQLQuery(query, indexedTables: try sideTables(for: query))
    let statement = try db.cachedStatement(
      sql: "SELECT COUNT(*) FROM \(query.kind.rawValue.quotedDatabaseIdentifier) WHERE \(sql.whereClause)"
    )
    return try Int.fetchOne(statement, arguments: StatementArguments(sql.arguments)) ?? 0
  }

  func changes(after sequence: Int64, limit: Int) throws -> [Change] {
    let statement = try db.cachedStatement(
      sql: "SELECT sequence, kind, id, operation, fields, origin, timestamp FROM forager_changes WHERE sequence > ? ORDER BY sequence LIMIT ?"
    )
    return try Row.fetchAll(statement, arguments: [sequence, max(0, limit)]).map { row in
      guard let kind = EntityKind(rawValue: row[1]), let id = UUID(storageText: row[2]),
        let operation = ChangeOperation(rawValue: row[3]), let fields = FieldValue.decodeJSONArray(row[4])
      else { throw StoreError.backend("damaged change-log entry \(row[0] as Int64)") }
      return Change(
        sequence: row[0], kind: kind, id: id, operation: operation, fields: fields,
        origin: ChangeOrigin(rawValue: row[5]), timestamp: Date(timeIntervalSinceReferenceDate: row[6])
      )
    }
  }

  func latestChangeSequence() throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(sequence), 0) FROM forager_changes")) ?? 0
  }

  func metadata(forKey key: String) throws -> String? {
    try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM forager_metadata WHERE key = ?"), arguments: [key])
  }

  /// The element side tables present in this file, read once per transaction and only
  /// for queries that can use them (a file a migration is writing may not have them yet).
  private var presentSideTables: Set<String>?

  private func sideTables(for query: RecordQuery) throws -> Set<String> {
    guard query.filters.contains(where: \.usesElementIndex) else { return [] }
    if let presentSideTables { return presentSideTables }
    let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_elements' ESCAPE '\\'")
    let present = Set(names)
    presentSideTables = present
    return present
  }

  // MARK: Writing

  func insertRecord(_ record: Record) throws {
    try record.validateAgainstSchema()
    let layout = TableLayout.of(record.kind)
    do {
      try db.cachedStatement(sql: layout.insertSQL).execute(arguments: StatementArguments(layout.arguments(for: record)))
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      throw try constraintError(for: record, error, inserting: true)
    }
    try appendChange(record, .insert, fields: record.fields.filter { !$0.value.isNull }.keys.sorted())
  }

  func updateRecord(_ record: Record) throws {
    try record.validateAgainstSchema()
    guard let old = try self.record(record.kind, id: record.id) else {
      throw StoreError.notFound(kind: record.kind, id: record.id)
    }
    guard old != record else { return }
    let layout = TableLayout.of(record.kind)
    var arguments = Array(layout.arguments(for: record).dropFirst())
    arguments.append(record.id.storageText.databaseValue)
    do {
      try db.cachedStatement(sql: layout.updateSQL).execute(arguments: StatementArguments(arguments))
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      throw try constraintError(for: record, error, inserting: false)
    }
    let deleted = old.meta.isLive && !record.meta.isLive
    try appendChange(record, deleted ? .delete : .update, fields: record.changedFields(comparedTo: old))
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
      try db.cachedStatement(sql: "INSERT OR REPLACE INTO forager_metadata (key, value) VALUES (?, ?)")
        .execute(arguments: [key, value])
    } else {
      try db.cachedStatement(sql: "DELETE FROM forager_metadata WHERE key = ?").execute(arguments: [key])
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

  func appendChange(_ record: Record, _ operation: ChangeOperation, fields: [String]) throws {
    try db.cachedStatement(
      sql: "INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp) VALUES (?, ?, ?, ?, ?, ?)"
    ).execute(arguments: [
      record.kind.rawValue, record.id.storageText, operation.rawValue, FieldValue.jsonArray(fields),
      origin.rawValue, now.timeIntervalSinceReferenceDate,
    ])
  }
}

/// A query's WHERE clause and its arguments.
private struct SQLQuery {
  var whereClause: String
  var arguments: [DatabaseValue] = []

  /// Side tables indexing list elements that exist in the file.
  let indexedTables: Set<String>

  init(_ query: RecordQuery, indexedTables: Set<String>) {
    self.indexedTables = indexedTables
    var clauses = query.includeDeleted ? [] : ["deletedAt IS NULL"]
    var arguments: [DatabaseValue] = []
    let schema = query.kind.schema
    for filter in query.filters {
      clauses.append(Self.clause(filter, schema, indexedTables, &arguments))
    }
    whereClause = clauses.isEmpty ? "1" : clauses.joined(separator: " AND ")
    self.arguments = arguments
  }

  private static func clause(
    _ filter: RecordFilter, _ schema: EntitySchema, _ indexedTables: Set<String>, _ arguments: inout [DatabaseValue]
  ) -> String {
    switch filter {
    case .equals(let field, let value):
      let column = field.quotedDatabaseIdentifier
      if value.isNull { return "\(column) IS NULL" }
      arguments.append(TableLayout.databaseValue(value))
      return "\(column) = ?"
    case .contains(let field, let needle):
      let column = field.quotedDatabaseIdentifier
      switch schema.field(named: field)?.type {
      case .text, .civilDate, .duration, .enumeration:
        arguments.append(needle.databaseValue)
        return "instr(lower(\(column)), lower(?)) > 0"
      case .textList:
        arguments.append(needle.databaseValue)
        return "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE instr(lower(json_each.value), lower(?)) > 0)"
      default:
        return "0"
      }
    case .references(let field, let id):
      let column = field.quotedDatabaseIdentifier
      switch schema.field(named: field)?.type {
      case .reference:
        arguments.append(id.storageText.databaseValue)
        return "\(column) = ?"
      case .referenceList:
        arguments.append(id.storageText.databaseValue)
        return "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE json_each.value = ?)"
      default:
        return "0"
      }
    case .hasElement(let field, let element):
      let column = field.quotedDatabaseIdentifier
      arguments.append(element.databaseValue)
      guard case .textList = schema.field(named: field)?.type else { return "0" }
      if let side = ElementIndex.sideTable(schema.kind, field), indexedTables.contains(side) {
        return "id IN (SELECT id FROM \(side.quotedDatabaseIdentifier) WHERE value = ?)"
      }
      return "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE json_each.value = ?)"
    case .anyOf(let filters):
      guard !filters.isEmpty else { return "0" }
      return "(" + filters.map { clause($0, schema, indexedTables, &arguments) }.joined(separator: " OR ") + ")"
    }
  }
}

extension RecordFilter {
  fileprivate var usesElementIndex: Bool {
    switch self {
    case .hasElement: true
    case .anyOf(let filters): filters.contains { $0.usesElementIndex }
    default: false
    }
  }
}
