import BenchBaselines
import CSQLite
import Foundation

/// The physical floor of a sync on this machine: the rows a sync wrote to a file (records,
/// states, change-log entries, counts, metadata), written again by hand into a copy of the
/// file as it was before the sync, with prepared statements in one transaction and no merge
/// logic. Tables the schema's triggers keep (the element and search indexes) are left to
/// those triggers, as in the sync. A sync's time over the floor's says what its decisions
/// cost beyond writing their outcome.
///
/// ```swift
/// let floor = try SyncFloor.Snapshot(files: [a, b, cloud], copiesIn: directory)
/// try a.engine.sync()   // … the timed sync
/// let seconds = try floor.replay()  // writes the same rows into the copies, timed
/// ```
struct SyncFloor {
  /// One SQLite value as read.
  enum Value: Hashable {
    case null, integer(Int64), real(Double), text(String), blob([UInt8])
  }

  /// A table's rows by their key (the rowid, or the primary key of a table without one).
  struct Table {
    let name: String
    let columns: [String]
    /// The key columns: `["rowid"]`, or the primary key's columns.
    let key: [String]
    var rows: [[Value]: [Value]]
  }

  /// The files as they were before the sync: their rows, and a copy of each to replay into.
  struct Snapshot {
    let files: [(path: String, copy: String, tables: [Table])]

    /// Reads every written table of each file and copies the files (database and WAL) next
    /// to `directory`. Nothing may write to the files meanwhile (a store's background
    /// checkpoint included: wait for it first).
    init(files paths: [String], copiesIn directory: URL) throws {
      var files: [(String, String, [Table])] = []
      for (index, path) in paths.enumerated() {
        let copy = directory.appendingPathComponent("floor-\(index)-\(UUID().uuidString.prefix(8)).sqlite").path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
          try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        files.append((path, copy, try SyncFloor.read(path)))
      }
      self.files = files
    }

    /// Writes what changed in each file since the snapshot into its copy, one transaction
    /// per file; returns the seconds the writes took (opening and closing untimed).
    /// Also returns how many rows were written.
    func replay() throws -> (seconds: Double, rows: Int) {
      var seconds = 0.0, written = 0
      for file in files {
        let after = try SyncFloor.read(file.path)
        let database = try RawDatabase(path: file.copy)
        let writes = try Writes(before: file.tables, after: after, database: database)
        written += writes.count
        seconds += try time { try writes.run(database) }
        try database.close()
      }
      return (seconds, written)
    }
  }

  /// Tables a trigger writes: the sync does not write them itself.
  static func isDerived(_ name: String) -> Bool {
    name.hasPrefix("sqlite_") || name.hasSuffix("_elements") || name.contains("_search")
  }

  /// Every table of the file that a sync writes itself, read whole.
  static func read(_ path: String) throws -> [Table] {
    let database = try RawDatabase(path: path, settings: false)
    defer { try? database.close() }
    let names = try database.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
    var tables: [(String, Bool)] = []
    while try names.step() {
      let name = names.text(0)
      guard !isDerived(name) else { continue }
      tables.append((name, names.text(1).contains("WITHOUT ROWID")))
    }
    return try tables.map { name, withoutRowID in
      let info = try database.prepare("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid")
      info.bind(1, name)
      var columns: [String] = [], primary: [(Int64, String)] = []
      while try info.step() {
        columns.append(info.text(0))
        let position = sqlite3_column_int64(info.handle, 1)
        if position > 0 { primary.append((position, info.text(0))) }
      }
      let key = withoutRowID ? primary.sorted { $0.0 < $1.0 }.map(\.1) : ["rowid"]
      // The key columns' places in a row (primary-key columns are among the columns).
      let keyPositions = withoutRowID ? key.compactMap { columns.firstIndex(of: $0) } : []
      let list = (withoutRowID ? [] : ["rowid"]) + columns.map { "\"\($0)\"" }
      let select = try database.prepare("SELECT \(list.joined(separator: ", ")) FROM \"\(name)\"")
      var rows: [[Value]: [Value]] = [:]
      while try select.step() {
        var values = (0..<Int32(list.count)).map { value(select.handle, $0) }
        let rowKey: [Value]
        if withoutRowID {
          rowKey = keyPositions.map { values[$0] }
        } else {
          rowKey = [values.removeFirst()]
        }
        rows[rowKey] = values
      }
      return Table(name: name, columns: columns, key: key, rows: rows)
    }
  }

  static func value(_ statement: OpaquePointer, _ column: Int32) -> Value {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
    case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, column)))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }

  /// The inserts, updates and deletes that take a file's tables from `before` to `after`,
  /// with their statements prepared.
  struct Writes {
    var steps: [(statement: RawStatement, values: [Value])] = []
    var count: Int { steps.count }

    init(before: [Table], after: [Table], database: RawDatabase) throws {
      let old = Dictionary(uniqueKeysWithValues: before.map { ($0.name, $0) })
      for table in after {
        let previous = old[table.name]?.rows ?? [:]
        let quoted = table.columns.map { "\"\($0)\"" }
        let keyed = table.key == ["rowid"] ? ["rowid"] + quoted : quoted
        let insert = try database.prepare(
          "INSERT INTO \"\(table.name)\" (\(keyed.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: keyed.count).joined(separator: ", ")))"
        )
        let match = table.key.map { $0 == "rowid" ? "rowid = ?" : "\"\($0)\" = ?" }.joined(separator: " AND ")
        let update = try database.prepare(
          "UPDATE \"\(table.name)\" SET \(quoted.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(match)")
        let delete = try database.prepare("DELETE FROM \"\(table.name)\" WHERE \(match)")
        let keyPositions = table.key.compactMap { table.columns.firstIndex(of: $0) }
        let keyValues: ([Value], [Value]) -> [Value] = { key, row in
          table.key == ["rowid"] ? key : keyPositions.map { row[$0] }
        }
        // Deletes, then updates, then inserts: a row that stops showing a unique key
        // leaves it before another row takes it, as within the sync's transaction.
        var updates: [(RawStatement, [Value])] = [], inserts: [(RawStatement, [Value])] = []
        for (key, row) in previous where table.rows[key] == nil {
          steps.append((delete, keyValues(key, row)))
        }
        for (key, row) in Self.ordered(table.rows) {
          guard let was = previous[key] else {
            inserts.append((insert, table.key == ["rowid"] ? key + row : row))
            continue
          }
          if was != row { updates.append((update, row + keyValues(key, row))) }
        }
        steps += updates + inserts
      }
    }

    /// Rowid tables in rowid order, as the sync appends them; other tables in the order of
    /// their keys' text, each key described once (describing both keys in every comparison
    /// made setting up the floor of a 100k pull take minutes).
    static func ordered(_ rows: [[Value]: [Value]]) -> [(key: [Value], value: [Value])] {
      func rowID(_ key: [Value]) -> Int64? {
        guard case .integer(let number) = key.first else { return nil }
        return number
      }
      let described = rows.map { entry in (entry: entry, text: rowID(entry.key) == nil ? "\(entry.key)" : "") }
      return described.sorted { a, b in
        if let x = rowID(a.entry.key), let y = rowID(b.entry.key) { return x < y }
        return a.text < b.text
      }.map { (key: $0.entry.key, value: $0.entry.value) }
    }

    func run(_ database: RawDatabase) throws {
      try database.execute("BEGIN IMMEDIATE")
      for (statement, values) in steps {
        for (offset, value) in values.enumerated() {
          let index = Int32(offset + 1)
          switch value {
          case .null: statement.bindNull(index)
          case .integer(let number): statement.bind(index, number)
          case .real(let number): statement.bind(index, number)
          case .text(let text): statement.bind(index, text)
          case .blob(let bytes): statement.bind(index, bytes)
          }
        }
        try statement.run()
      }
      try database.execute("COMMIT")
    }
  }
}
