import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// `SQLITE_TRANSIENT` (the importer cannot see the macro): SQLite copies the bound value.
private nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Statement binding and stepping on the SQLite C API, for the transaction's hot paths.
extension SQLiteTransaction {
  /// A text column of the current row, or nil when it is NULL.
  static func text(_ handle: SQLiteStatement, _ column: Int32) -> String? {
    guard sqlite3_column_type(handle, column) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Runs `body` with a kept statement's SQLite handle, reset first; reset again and its
  /// bindings cleared afterwards, whatever `body` does.
  func withHandle<T>(_ statement: Statement, _ body: (SQLiteStatement) throws -> T) rethrows -> T {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    return try body(handle)
  }

  /// Steps a bound statement to its end, calling `row` at each row it gives.
  func step(_ statement: Statement, _ row: (SQLiteStatement) throws -> Void = { _ in }) throws {
    let handle = statement.sqliteStatement
    while true {
      let code = sqlite3_step(handle)
      guard code == SQLITE_ROW else {
        guard code == SQLITE_DONE else { throw failure(code, statement) }
        return
      }
      try row(handle)
    }
  }

  /// Steps a cached statement with its parameters bound to these UTF-8 texts (copied) and
  /// returns what `row` makes of each row it gives a value for.
  func textRows<T>(_ sql: String, binding texts: [[UInt8]], _ row: (SQLiteStatement) -> T?) throws -> [T] {
    let statement = try db.cachedStatement(sql: sql)
    return try withHandle(statement) { handle in
      for (index, text) in texts.enumerated() {
        text.withUnsafeBufferPointer { Self.bindText($0, to: handle, at: Int32(index + 1)) }
      }
      var values: [T] = []
      try step(statement) { if let value = row($0) { values.append(value) } }
      return values
    }
  }

  /// A JSON array of strings, escaped as JSON requires.
  static func jsonArray(_ strings: some Sequence<String>) -> String {
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

  /// ``jsonArray(_:)`` of ids in their stored form, written into one buffer: an id needs
  /// no escapes, and a page of 500 ids went through the escaping loop byte by byte.
  static func jsonArray(ids: [UUID]) -> String {
    guard !ids.isEmpty else { return "[]" }
    // `[` + `"<36>",` per id, the last comma replaced by `]`.
    return String(unsafeUninitializedCapacity: 1 + 39 * ids.count) { buffer in
      buffer[0] = UInt8(ascii: "[")
      var offset = 1
      for id in ids {
        buffer[offset] = UInt8(ascii: "\"")
        offset = id.writeLowercaseText(into: buffer, at: offset + 1)
        buffer[offset] = UInt8(ascii: "\"")
        buffer[offset + 1] = UInt8(ascii: ",")
        offset += 2
      }
      buffer[offset - 1] = UInt8(ascii: "]")
      return offset
    }
  }

  /// The statement kept in `slot`, looked up in the connection's cache the first time:
  /// that lookup hashes the whole SQL text.
  func cachedStatement(_ slot: inout Statement?, _ sql: String) throws -> Statement {
    if let slot { return slot }
    let statement = try db.cachedStatement(sql: sql)
    slot = statement
    return statement
  }

  /// Steps a read whose parameters are an optional `fixed` text and then texts to look
  /// up, calling `row` at each row it gives. ``keysPerRead`` texts are looked up per step
  /// of `many`, their parameters bound from each text's own UTF-8 (≈ 6k instructions per
  /// key, against ≈ 7k for a JSON array unpacked by `json_each`); a short last chunk
  /// repeats its last text (SQLite reads a repeated value of an `IN` list once). The
  /// statement searches for each of its texts, repeated or not, so a few texts are read
  /// one step of `one` each.
  func readByTexts(
    many: inout Statement?, _ manySQL: String, one: inout Statement?, _ oneSQL: String,
    fixed: String?, texts: [String], _ row: (SQLiteStatement) throws -> Void
  ) throws {
    guard !texts.isEmpty else { return }
    let first: Int32 = fixed == nil ? 1 : 2
    func bindFixed(_ handle: SQLiteStatement) {
      guard var fixed else { return }
      fixed.withUTF8 { Self.bindText($0, to: handle, at: 1) }
    }
    var start = 0
    if texts.count >= Self.keysPerRead / 8 {
      let statement = try cachedStatement(&many, manySQL)
      try withHandle(statement) { handle in
        bindFixed(handle)
        while texts.count - start >= Self.keysPerRead / 8 {
          sqlite3_reset(handle)
          for slot in 0..<Self.keysPerRead {
            var text = texts[min(start + slot, texts.count - 1)]
            text.withUTF8 { Self.bindText($0, to: handle, at: first + Int32(slot)) }
          }
          try step(statement, row)
          start += Self.keysPerRead
        }
      }
    }
    guard start < texts.count else { return }
    let statement = try cachedStatement(&one, oneSQL)
    try withHandle(statement) { handle in
      bindFixed(handle)
      for index in start..<texts.count {
        sqlite3_reset(handle)
        var text = texts[index]
        text.withUTF8 { Self.bindText($0, to: handle, at: first) }
        try step(statement, row)
      }
    }
  }

  /// Runs a cached INSERT or UPDATE with `values` bound to its parameters 1…n, on the
  /// SQLite statement itself. GRDB's `execute(arguments:)` first copies the values into
  /// `StatementArguments` and checks them, about as much work again as the INSERT; the
  /// rest of its bookkeeping serves transaction observers, and no store connection ever
  /// has one.
  func run(_ sql: String, _ values: [DatabaseValue]) throws {
    try run(db.cachedStatement(sql: sql), values)
  }

  /// Runs a write statement with `values` bound to its parameters 1…n.
  func run(_ statement: Statement, _ values: [DatabaseValue]) throws {
    try withHandle(statement) { handle in
      try bind(values, to: handle) { try step(statement) }
    }
  }

  /// Binds values to a reset statement's parameters 1…n and runs `body` while they are
  /// bound. Texts are bound in place from ``BoundTexts`` (GRDB's binding copies each string
  /// into a new C string, and SQLite copies it again), valid until `body` returns: the
  /// caller clears the bindings before the statement is bound again.
  func bind<T>(_ values: [DatabaseValue], to handle: SQLiteStatement, _ body: () throws -> T) rethrows -> T {
    var length = 0
    for value in values { if case .string(let text) = value.storage { length += text.utf8.count } }
    return try boundTexts.binding(length: length) { texts in
      for (index, value) in values.enumerated() {
        let position = Int32(index + 1)
        switch value.storage {
        case .null: sqlite3_bind_null(handle, position)
        case .int64(let number): sqlite3_bind_int64(handle, position, number)
        case .double(let number): sqlite3_bind_double(handle, position, number)
        case .string(var text): texts.bind(&text, to: handle, at: position)
        case .blob: _ = value.bind(to: handle, at: position)
        }
      }
      return try body()
    }
  }

  /// Binds UTF-8 bytes (copied) as text. An empty buffer may have no address, and a null
  /// pointer would bind NULL, not the empty text.
  static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to handle: SQLiteStatement, at position: Int32) {
    guard let start = bytes.baseAddress, !bytes.isEmpty else {
      sqlite3_bind_text(handle, position, "", 0, sqliteTransient)
      return
    }
    start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
      _ = sqlite3_bind_text(handle, position, $0, Int32(bytes.count), sqliteTransient)
    }
  }

  /// The error of a statement that failed with `code`, with SQLite's message.
  func failure(_ code: Int32, _ statement: Statement) -> DatabaseError {
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
