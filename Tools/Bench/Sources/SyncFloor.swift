import BenchBaselines
import CSQLite
import Foundation

/// The physical floor of a sync on this machine: the rows each sync wrote to each file
/// (records, states, change-log entries, counts, metadata), written again by hand into a
/// copy of the file as it was before, with prepared statements and no merge logic.
/// Tables the schema's triggers keep (the element and search indexes) are left to those
/// triggers, as in the sync. A sync's time over the floor's says what its decisions cost
/// beyond reading and writing their outcome.
///
/// The floor does what any sync of these rows must do, as the store does it:
/// - **one transaction per file a sync wrote**: the differences are taken sync by sync
///   (``Snapshot/mark()`` after each), not as the net change over all of them;
/// - **the reads**: before a row it updates or deletes, the row is read by its key (every
///   column's type and bytes), and before a record or state it inserts, its key is probed —
///   a sync must read what it joins into and know whether a record exists. Appends to a
///   log (the change log, the history: tables keyed by their rowid alone) read nothing;
/// - **partial updates**: an updated row sets only the columns that changed, one prepared
///   statement per set of columns, as the store writes them (a full update would rewrite
///   every index entry of the row).
///
/// ```swift
/// var floor = try SyncFloor.Snapshot(files: [a, b, cloud], copiesIn: directory)
/// try a.engine.sync()   // … a timed sync
/// try floor.mark()      // untimed: the files as that sync left them
/// let replayed = try floor.replay()  // each sync's writes into the copies, timed
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
    /// The columns a sync finds a row by: the primary key (a record's `id`, a state's kind
    /// and id); nil in a log, whose primary key is its rowid (an `INTEGER PRIMARY KEY`),
    /// which a sync appends to without reading.
    let lookupColumns: [String]?
    var rows: [[Value]: [Value]]
  }

  /// The files as they were before the first sync, and after each sync marked since.
  struct Snapshot {
    let paths: [String]
    let copies: [String]
    /// Per state (before, then after each mark), each file's tables.
    private(set) var states: [[[Table]]]

    /// Reads every written table of each file and copies the files (database and WAL) next
    /// to `directory`. Nothing may write to the files meanwhile (a store's background
    /// checkpoint included: wait for it first).
    init(files paths: [String], copiesIn directory: URL) throws {
      var copies: [String] = []
      for path in paths {
        let copy = directory.appendingPathComponent("floor-\(copies.count)-\(UUID().uuidString.prefix(8)).sqlite").path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
          try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        copies.append(copy)
      }
      self.paths = paths
      self.copies = copies
      states = [try paths.map(SyncFloor.read)]
    }

    /// Reads the files as the sync just timed left them: the next step of ``replay()``.
    mutating func mark() throws { states.append(try paths.map(SyncFloor.read)) }

    /// Writes what each marked sync changed in each file into its copy, one transaction per
    /// sync and file that changed; returns the seconds the reads and writes took (opening,
    /// diffing and preparing untimed) and how many rows were written.
    func replay() throws -> (seconds: Double, rows: Int) {
      var seconds = 0.0, written = 0
      for (index, copy) in copies.enumerated() {
        let database = try RawDatabase(path: copy)
        var statements = Statements(database: database)
        for step in 1..<states.count {
          let writes = try Writes(before: states[step - 1][index], after: states[step][index], statements: &statements)
          guard writes.count > 0 else { continue }
          written += writes.count
          seconds += try time { try writes.run(database) }
        }
        statements = Statements(database: database)  // finalized before the close
        try database.close()
      }
      return (seconds, written)
    }
  }

  /// A file's prepared statements by their SQL, each prepared once.
  struct Statements {
    let database: RawDatabase
    var prepared: [String: RawStatement] = [:]

    mutating func callAsFunction(_ sql: String) throws -> RawStatement {
      if let statement = prepared[sql] { return statement }
      let statement = try database.prepare(sql)
      prepared[sql] = statement
      return statement
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
      let info = try database.prepare("SELECT name, pk, upper(type) FROM pragma_table_info(?) ORDER BY cid")
      info.bind(1, name)
      var columns: [String] = [], primary: [(Int64, String)] = [], integerKey = false
      while try info.step() {
        columns.append(info.text(0))
        let position = sqlite3_column_int64(info.handle, 1)
        if position > 0 { primary.append((position, info.text(0))) }
        if position > 0, info.text(2) == "INTEGER" { integerKey = true }
      }
      let primaryKey = primary.sorted { $0.0 < $1.0 }.map(\.1)
      let key = withoutRowID ? primaryKey : ["rowid"]
      let lookup = primaryKey.isEmpty || (!withoutRowID && primaryKey.count == 1 && integerKey) ? nil : primaryKey
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
      return Table(name: name, columns: columns, key: key, lookupColumns: lookup, rows: rows)
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

  /// The reads, inserts, updates and deletes that take a file's tables from `before` to
  /// `after`, with their statements prepared.
  struct Writes {
    enum Kind { case read, write }
    typealias Step = (kind: Kind, statement: RawStatement, values: [Value])
    var steps: [Step] = []
    /// The rows written.
    var count: Int { steps.lazy.filter { $0.kind == .write }.count }

    /// How a table's row is read before it changes: by the columns a sync finds it by.
    struct Lookup {
      /// Every column of the row (before an update or a delete).
      let row: RawStatement
      /// Whether the row exists (before an insert).
      let probe: RawStatement
      /// The lookup columns' places in a row.
      let positions: [Int]

      func read(_ statement: RawStatement, _ values: [Value]) -> Step { (.read, statement, positions.map { values[$0] }) }
    }

    init(before: [Table], after: [Table], statements: inout Statements) throws {
      let old = Dictionary(uniqueKeysWithValues: before.map { ($0.name, $0) })
      for table in after {
        let previous = old[table.name]?.rows ?? [:]
        let quoted = table.columns.map { "\"\($0)\"" }
        let keyed = table.key == ["rowid"] ? ["rowid"] + quoted : quoted
        let insert = try statements(
          "INSERT INTO \"\(table.name)\" (\(keyed.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: keyed.count).joined(separator: ", ")))"
        )
        let match = table.key.map { $0 == "rowid" ? "rowid = ?" : "\"\($0)\" = ?" }.joined(separator: " AND ")
        let delete = try statements("DELETE FROM \"\(table.name)\" WHERE \(match)")
        let keyPositions = table.key.compactMap { table.columns.firstIndex(of: $0) }
        let keyValues: ([Value], [Value]) -> [Value] = { key, row in
          table.key == ["rowid"] ? key : keyPositions.map { row[$0] }
        }
        let lookup = try table.lookupColumns.map { columns in
          let condition = columns.map { "\"\($0)\" = ?" }.joined(separator: " AND ")
          return Lookup(
            row: try statements("SELECT \(quoted.joined(separator: ", ")) FROM \"\(table.name)\" WHERE \(condition)"),
            probe: try statements("SELECT 1 FROM \"\(table.name)\" WHERE \(condition)"),
            positions: columns.compactMap { table.columns.firstIndex(of: $0) })
        }
        // Deletes, then updates, then inserts: a row that stops showing a unique key
        // leaves it before another row takes it, as within the sync's transaction.
        var updates: [Step] = [], inserts: [Step] = []
        for (key, row) in previous where table.rows[key] == nil {
          if let lookup { steps.append(lookup.read(lookup.row, row)) }
          steps.append((.write, delete, keyValues(key, row)))
        }
        for (key, row) in Self.ordered(table.rows) {
          guard let was = previous[key] else {
            if let lookup { inserts.append(lookup.read(lookup.probe, row)) }
            inserts.append((.write, insert, table.key == ["rowid"] ? key + row : row))
            continue
          }
          guard was != row else { continue }
          let changed = row.indices.filter { row[$0] != was[$0] }
          let update = try statements(
            "UPDATE \"\(table.name)\" SET \(changed.map { "\(quoted[$0]) = ?" }.joined(separator: ", ")) WHERE \(match)")
          if let lookup { updates.append(lookup.read(lookup.row, was)) }
          updates.append((.write, update, changed.map { row[$0] } + keyValues(key, row)))
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
      for (kind, statement, values) in steps {
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
        switch kind {
        case .write: try statement.run()
        case .read:
          if try statement.step() { _ = statement.touchRow() }
          statement.reset()
        }
      }
      try database.execute("COMMIT")
    }
  }
}
