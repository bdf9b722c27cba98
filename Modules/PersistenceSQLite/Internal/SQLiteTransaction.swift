import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// One read or write transaction on a GRDB connection. Hot paths use cached statements.
final class SQLiteTransaction: StoreWriter {
  let db: Database
  var origin: ChangeOrigin
  let now: Date

  /// Whether this transaction keeps ``lastRead``: only when no one else runs SQL on the
  /// connection while it lives (the store's own transactions, not the migration's writer).
  private let keepsLastRead: Bool

  /// Whether this transaction reads and keeps ``LiveCounts``: the store's own
  /// transactions, not the migration's writer (the migration drops the counter).
  let keepsLiveCounts: Bool
  /// How this transaction's writes changed each kind's live records, written at commit.
  var liveCountDeltas = LiveCountDeltas()
  /// What this transaction wrote, for the commit notice.
  var touched = StoreRegion()

  /// The record this transaction last read by id (or as the only record of a key) and
  /// has not written since: repositories read a record, change it and save it, and saving
  /// reads it again and the update once more for its change log; this serves the second
  /// and third reads.
  var lastRead: Record?

  /// The statements of lookups and inserts, by kind: the connection's own for a read, the
  /// transaction's for a write.
  let statements: StatementSlots

  init(
    db: Database, origin: ChangeOrigin, now: Date, keepsLastRead: Bool = false, keepsLiveCounts: Bool = false,
    statements: StatementSlots = StatementSlots()
  ) {
    self.db = db
    self.origin = origin
    self.now = now
    self.keepsLastRead = keepsLastRead
    self.keepsLiveCounts = keepsLiveCounts
    self.statements = statements
  }

  /// The change-log INSERT, looked up once per transaction (a recipe writes 21 entries).
  var changeStatement: Statement?
  /// The metadata upsert, likewise (sync sets stamps for every record it writes).
  var metadataStatement: Statement?
  /// `SELECT … WHERE key IN (?, …)` with ``keysPerRead`` parameters.
  var metadataByKeysStatement: Statement?
  /// The metadata range read (`metadataKeys(withPrefix:limit:)`) and the one-key read.
  var metadataPrefixStatement: Statement?
  var metadataByKeyStatement: Statement?
  /// The sync state upsert and reads (``syncStates(_:ids:)``, ``syncStateHolders(_:keys:)``).
  var syncStateStatement: Statement?
  var syncStateOnlyStatement: Statement?
  var syncStatesByIDsStatement: Statement?
  var syncStateByIDStatement: Statement?
  var syncHoldersByKeysStatement: Statement?
  var syncHoldersByKeyStatement: Statement?

  /// Where the texts of a write statement are bound from (``BoundTexts``).
  lazy var boundTexts = BoundTexts()

  /// The side tables (list elements, text search) present in this file, read once per
  /// transaction and only for queries that can use them (a file a migration is writing
  /// may not have them yet).
  private var presentSideTables: Set<String>?

  // MARK: Reading

  func record(_ kind: EntityKind, id: UUID) throws -> Record? {
    if let lastRead, lastRead.id == id, lastRead.kind == kind { return lastRead }
    let layout = TableLayout.of(kind)
    let found = try select(statements.statement(.byID, kind, sql: layout.selectByIDSQL, in: db), id.storageText, layout).first
    if keepsLastRead, let found { lastRead = found }
    return found
  }

  func records(_ kind: EntityKind, semanticKey: String, includeDeleted: Bool) throws -> [Record] {
    let layout = TableLayout.of(kind)
    guard let sql = includeDeleted ? layout.selectByKeySQL : layout.selectLiveByKeySQL else { return [] }
    let found = try select(statements.statement(includeDeleted ? .byKey : .liveByKey, kind, sql: sql, in: db), semanticKey, layout)
    if keepsLastRead, found.count == 1 { lastRead = found[0] }
    return found
  }

  /// The records a cached SELECT of a kind's columns with one text argument finds, bound
  /// and stepped on the SQLite statement itself (see ``TableLayout/record(from:)``).
  func select(_ sql: String, _ argument: String, _ layout: TableLayout) throws -> [Record] {
    try select(db.cachedStatement(sql: sql), argument, layout)
  }

  func select(_ statement: Statement, _ argument: String, _ layout: TableLayout) throws -> [Record] {
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
    let query = query.canonical
    if let found = try elementLookup(query) { return found }
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
    return try bind(sql.arguments, to: handle) { try rows(of: statement, layout) }
  }

  /// ``fetch(_:)`` of the live records whose list field holds an element, ordered by id,
  /// when the field's side table is in the file: get-or-create runs it for every new
  /// ingredient name (is the name another template's alias?), and building the general
  /// query's text (SQLQuery, ORDER BY, then GRDB's cache lookup) cost nearly half as much as the
  /// lookup's own SQL. The same SELECT, its text made once per field. Nil for any other query.
  private func elementLookup(_ query: RecordQuery) throws -> [Record]? {
    guard query.filters.count == 1, case .hasElement(let field, let element) = query.filters[0], !query.includeDeleted,
      query.sort.isEmpty, query.limit == nil, query.offset == 0
    else { return nil }
    let layout = TableLayout.of(query.kind)
    guard let sql = layout.selectLiveByElementSQL[field], let side = ElementIndex.sideTable(query.kind, field),
      try sideTables(for: query).contains(side)
    else { return nil }
    return try select(sql, element, layout)
  }

  func count(_ query: RecordQuery) throws -> Int {
    let query = query.canonical
    try query.validate()
    let sql = SQLQuery(query, indexedTables: try sideTables(for: query))
    let statement = try db.cachedStatement(
      sql: "SELECT COUNT(*) FROM \(query.kind.rawValue.quotedDatabaseIdentifier) WHERE \(sql.whereClause)"
    )
    return try Int.fetchOne(statement, arguments: StatementArguments(sql.arguments)) ?? 0
  }

  /// `MAX` over the live rows: an indexed field's partial index (over live rows) answers it
  /// with one seek, where the general query (`ORDER BY field DESC, id ASC LIMIT 1`) set up
  /// a sorter for the id and decoded a whole record on every `category add`.
  func largestInteger(_ kind: EntityKind, field: String) throws -> Int64? {
    try StoreError.requireIntegerField(kind, field)
    let sql = "SELECT MAX(\(field.quotedDatabaseIdentifier)) FROM \(kind.rawValue.quotedDatabaseIdentifier) WHERE deletedAt IS NULL"
    return try textRows(sql, binding: []) { row -> Int64? in
      sqlite3_column_type(row, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(row, 0)
    }.first
  }

  /// One SELECT for the whole page: the ids are bound as one JSON array and read back by
  /// `json_each`, so the statement is the same (and cached) whatever their number.
  func records(_ kind: EntityKind, ids: [UUID]) throws -> [Record] {
    guard !ids.isEmpty else { return [] }
    let layout = TableLayout.of(kind)
    return try select(layout.selectByIDsSQL, Self.jsonArray(ids: ids), layout)
  }

  func tombstoned(_ kind: EntityKind, among ids: [UUID]) throws -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    let table = TableLayout.of(kind).table.quotedDatabaseIdentifier
    return Set(
      try textRows(
        "SELECT id FROM \(table) WHERE deletedAt IS NOT NULL AND id IN (SELECT value FROM json_each(?))",
        binding: [Array(Self.jsonArray(ids: ids).utf8)]
      ) { UUID(storageColumn: $0, 0) })
  }

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
}
