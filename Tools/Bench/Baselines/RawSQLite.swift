internal import CSQLite
import Foundation
import PersistenceSQLite

/// `SQLITE_TRANSIENT` is a macro the importer cannot see: SQLite copies bound values.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The baselines' connection: the raw SQLite C API, nothing in between, on the same
/// settings as a store's writer (``WriterSettings``) and with the same checkpoints
/// (``BackgroundCheckpointer``), so that a comparison measures the code on each side.
public final class RawDatabase {
  public let handle: OpaquePointer
  private let checkpointer: BackgroundCheckpointer?
  private var closed = false

  /// Opens `path` as a store's writer is opened; `settings: false` leaves SQLite's defaults
  /// (for the test that shows a comparison of settings notices the difference).
  public init(path: String, settings: Bool = true) throws {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
      let db
    else { throw BenchError("cannot open \(path)") }
    handle = db
    sqlite3_busy_timeout(db, 10_000)
    guard settings else {
      checkpointer = nil
      return
    }
    checkpointer = BackgroundCheckpointer(path: path)
    do {
      try execute("PRAGMA journal_mode = WAL")
      try WriterSettings.apply { try execute($0) }
    } catch {
      sqlite3_close_v2(db)
      throw error
    }
    checkpointer?.install(onConnection: db)
  }

  deinit { try? close() }

  /// Waits for a checkpoint running beside this connection, empties the WAL and closes, as
  /// a store's `close()` does: nothing of this side runs on while the other side is timed.
  public func close() throws {
    guard !closed else { return }
    closed = true
    try checkpointer?.close()
    sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    sqlite3_close_v2(handle)
  }

  /// An integer setting of this connection (`PRAGMA name`).
  public func setting(_ name: String) throws -> Int { Int(try scalar("PRAGMA \(name)")) }

  /// A text setting of this connection (`PRAGMA name`), such as `journal_mode`.
  public func textSetting(_ name: String) throws -> String {
    let statement = try prepare("PRAGMA \(name)")
    guard try statement.step() else { return "" }
    return statement.text(0)
  }

  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw BenchError("sqlite: \(text) in \(sql.prefix(80))")
    }
  }

  public func prepare(_ sql: String) throws -> RawStatement {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
      let statement
    else { throw BenchError("sqlite: \(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(80))") }
    return RawStatement(statement, db: handle)
  }

  /// The column names of a table, in order.
  public func columns(of table: String) throws -> [String] {
    let statement = try prepare("SELECT name FROM pragma_table_info(?)")
    statement.bind(1, table)
    var names: [String] = []
    while try statement.step() { names.append(statement.text(0)) }
    return names
  }

  public func scalar(_ sql: String) throws -> Int64 {
    let statement = try prepare(sql)
    guard try statement.step() else { return 0 }
    return sqlite3_column_int64(statement.handle, 0)
  }
}

/// A prepared statement, reused for every row (reset, bind, step).
public final class RawStatement {
  public let handle: OpaquePointer
  private let db: OpaquePointer

  init(_ handle: OpaquePointer, db: OpaquePointer) {
    self.handle = handle
    self.db = db
  }

  deinit { sqlite3_finalize(handle) }

  public func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  public func bind(_ index: Int32, _ text: String) {
    sqlite3_bind_text(handle, index, text, -1, sqliteTransient)
  }

  public func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
  public func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
  public func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }
  public func bind(_ index: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { _ = sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
  }

  /// Steps once: true when a row is ready, false when done.
  @discardableResult
  public func step() throws -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw BenchError("sqlite: \(String(cString: sqlite3_errmsg(db)))")
    }
  }

  /// Runs a statement that returns no rows, then resets it.
  public func run() throws {
    defer { reset() }
    try step()
  }

  public func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    return String(cString: pointer)
  }

  /// Reads every column of the current row the way a decoder must (type, bytes),
  /// without building values: the least work a reader of the row can do.
  public func touchRow() -> Int {
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

public struct BenchError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
