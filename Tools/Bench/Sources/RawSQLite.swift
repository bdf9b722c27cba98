import CSQLite
import Foundation
import PersistenceSQLite

/// `SQLITE_TRANSIENT` is a macro the importer cannot see: SQLite copies bound values.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The baseline's connection: the raw SQLite C API, nothing in between.
final class RawDatabase {
  let handle: OpaquePointer

  init(path: String) throws {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
      let db
    else { throw BenchError("cannot open \(path)") }
    handle = db
    sqlite3_busy_timeout(db, 10_000)
    // The same durability as SQLiteStore's writer, which sets synchronous NORMAL in WAL
    // mode (no fsync per commit); the raw default FULL would fsync each one.
    sqlite3_exec(db, "PRAGMA synchronous = NORMAL", nil, nil, nil)
    // And the same checkpoint interval, so neither side's commits pay the other's checkpoints.
    sqlite3_exec(db, "PRAGMA wal_autocheckpoint = \(SQLiteStore.checkpointPages)", nil, nil, nil)
  }

  deinit { sqlite3_close_v2(handle) }

  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw BenchError("sqlite: \(text) in \(sql.prefix(80))")
    }
  }

  func prepare(_ sql: String) throws -> RawStatement {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
      let statement
    else { throw BenchError("sqlite: \(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(80))") }
    return RawStatement(statement, db: handle)
  }

  /// The column names of a table, in order.
  func columns(of table: String) throws -> [String] {
    let statement = try prepare("SELECT name FROM pragma_table_info(?)")
    statement.bind(1, table)
    var names: [String] = []
    while try statement.step() { names.append(statement.text(0)) }
    return names
  }

  func scalar(_ sql: String) throws -> Int64 {
    let statement = try prepare(sql)
    guard try statement.step() else { return 0 }
    return sqlite3_column_int64(statement.handle, 0)
  }
}

/// A prepared statement, reused for every row (reset, bind, step).
final class RawStatement {
  let handle: OpaquePointer
  private let db: OpaquePointer

  init(_ handle: OpaquePointer, db: OpaquePointer) {
    self.handle = handle
    self.db = db
  }

  deinit { sqlite3_finalize(handle) }

  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  func bind(_ index: Int32, _ text: String) {
    sqlite3_bind_text(handle, index, text, -1, sqliteTransient)
  }

  func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
  func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
  func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

  /// Steps once: true when a row is ready, false when done.
  @discardableResult
  func step() throws -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw BenchError("sqlite: \(String(cString: sqlite3_errmsg(db)))")
    }
  }

  /// Runs a statement that returns no rows, then resets it.
  func run() throws {
    defer { reset() }
    try step()
  }

  func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    return String(cString: pointer)
  }

  /// Reads every column of the current row the way a decoder must (type, bytes),
  /// without building values: the least work a reader of the row can do.
  func touchRow() -> Int {
    var total = 0
    for column in 0..<sqlite3_column_count(handle) {
      switch sqlite3_column_type(handle, column) {
      case SQLITE_INTEGER: total &+= Int(sqlite3_column_int64(handle, column))
      case SQLITE_FLOAT: total &+= Int(sqlite3_column_double(handle, column))
      case SQLITE_TEXT, SQLITE_BLOB:
        _ = sqlite3_column_text(handle, column)
        total &+= Int(sqlite3_column_bytes(handle, column))
      default: break
      }
    }
    return total
  }
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
