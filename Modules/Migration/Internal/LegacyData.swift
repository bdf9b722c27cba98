import Foundation
import GRDB
import Model
import Normalization

/// The rows of a version-1 file, read whole before stage A rewrites it.
///
/// The file is untrusted: a value whose storage class is not its column's (text in a date
/// column, a blob in a name), or a number outside what any kitchen holds, is left empty
/// and counted in ``notes``, so every later read is total and a damaged row costs its
/// damaged value only, never the migration.
struct LegacyData {
  /// The storage class a version-1 column holds, from its declared type.
  enum ColumnType {
    case text, integer, real
  }

  /// The largest magnitude of an integer the migration keeps (servings, minutes, counts,
  /// sort orders): far past any kitchen's, and small enough that sums of two cannot
  /// overflow.
  static let integerBound: Int64 = 1_000_000_000_000
  /// The largest magnitude of a date the migration keeps, in seconds from 2001-01-01:
  /// about 950 years either way.
  static let dateBound: Double = 30_000_000_000

  private var tables: [String: [LegacyRow]] = [:]
  /// What was left empty, one line per column: "Recipe.dateCreated: 2 values were not
  /// numbers and were left empty".
  private(set) var notes: [String] = []

  init(_ db: Database) throws {
    let expected = try Self.expectedColumns()
    for name in LegacySchema.tableNames where try db.tableExists(name) {
      tables[name] = try read(name, db, expected: expected[name] ?? [:])
    }
  }

  func rows(_ table: String) -> [LegacyRow] { tables[table] ?? [] }

  /// Each table's columns and their storage classes, as version 1 declares them.
  private static func expectedColumns() throws -> [String: [String: ColumnType]] {
    let queue = try DatabaseQueue()
    return try queue.write { db in
      for statement in LegacySchema.createStatements { try db.execute(sql: statement) }
      var tables: [String: [String: ColumnType]] = [:]
      for table in LegacySchema.tableNames {
        for column in try db.columns(in: table) {
          let declared = column.type.uppercased()
          tables[table, default: [:]][column.name] = declared.contains("INT") ? .integer : declared.contains("REAL") ? .real : .text
        }
      }
      return tables
    }
  }

  private mutating func read(_ table: String, _ db: Database, expected: [String: ColumnType]) throws -> [LegacyRow] {
    let statement = try db.makeStatement(sql: "SELECT rowid AS legacyRowID, * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
    let columns = LegacyRow.Columns(statement.columnNames)
    // Columns match case-insensitively, as SQLite's names do.
    let checks = expected.compactMap { name, type in columns.position(name).map { (index: $0, name: name, type: type) } }
    var cleared: [String: (type: ColumnType, wrongType: Int, outOfRange: Int)] = [:]
    var rows: [LegacyRow] = []
    let cursor = try Row.fetchCursor(statement)
    while let row = try cursor.next() {
      var values = Array(row.databaseValues)
      for check in checks {
        switch Self.checked(values[check.index], check.type) {
        case .kept(let value): values[check.index] = value
        case .wrongType:
          values[check.index] = .null
          cleared[check.name, default: (check.type, 0, 0)].wrongType += 1
        case .outOfRange:
          values[check.index] = .null
          cleared[check.name, default: (check.type, 0, 0)].outOfRange += 1
        }
      }
      // The rowid, unless the file named a column of its own `rowid`: then the position.
      let rowID = Int64.fromDatabaseValue(values[0]) ?? Int64(rows.count + 1)
      rows.append(LegacyRow(rowID: rowID, columns: columns, values: values))
    }
    for (column, count) in cleared.sorted(by: { $0.key < $1.key }) {
      if count.wrongType > 0 {
        let expected = count.type == .text ? "text" : count.wrongType == 1 ? "a number" : "numbers"
        notes.append("\(table).\(column): \(Self.values(count.wrongType)) not \(expected) and \(Self.was(count.wrongType)) left empty")
      }
      if count.outOfRange > 0 {
        notes.append("\(table).\(column): \(Self.values(count.outOfRange)) out of range and \(Self.was(count.outOfRange)) left empty")
      }
    }
    return rows
  }

  private static func values(_ count: Int) -> String { count == 1 ? "1 value was" : "\(count) values were" }
  private static func was(_ count: Int) -> String { count == 1 ? "was" : "were" }

  private enum Check {
    case kept(DatabaseValue)
    case wrongType
    case outOfRange
  }

  /// A value as the migration reads it: an integer column's whole number (a real with a
  /// whole value counts), a real column's number, a text column's text; NULL stays NULL.
  private static func checked(_ value: DatabaseValue, _ type: ColumnType) -> Check {
    switch (value.storage, type) {
    case (.null, _): return .kept(value)
    case (.string, .text): return .kept(value)
    case (.int64(let number), .integer):
      return number.magnitude <= integerBound.magnitude ? .kept(value) : .outOfRange
    case (.double(let number), .integer):
      guard number.isFinite, number.rounded() == number else { return .wrongType }
      return abs(number) <= Double(integerBound) ? .kept(Int64(number).databaseValue) : .outOfRange
    case (.double(let number), .real):
      guard number.isFinite else { return .outOfRange }
      return abs(number) <= dateBound ? .kept(value) : .outOfRange
    case (.int64(let number), .real):
      return Double(number).magnitude <= dateBound ? .kept(Double(number).databaseValue) : .outOfRange
    default: return .wrongType
    }
  }
}

/// One row of a version-1 table, its values checked by ``LegacyData``: reads are by the
/// schema's column names, and a column the file does not have reads as empty.
struct LegacyRow {
  /// A table's column positions by name, shared by its rows.
  struct Columns {
    private let positions: [String: Int]
    private let lowercased: [String: Int]

    init(_ names: [String]) {
      var positions: [String: Int] = [:], lowercased: [String: Int] = [:]
      for (index, name) in names.enumerated().reversed() {
        positions[name] = index
        lowercased[name.lowercased()] = index
      }
      self.positions = positions
      self.lowercased = lowercased
    }

    /// The leftmost column of this name, in any case.
    func position(_ name: String) -> Int? { positions[name] ?? lowercased[name.lowercased()] }
  }

  let rowID: Int64
  let columns: Columns
  let values: [DatabaseValue]

  private func value(_ column: String) -> DatabaseValue.Storage {
    columns.position(column).map { values[$0].storage } ?? .null
  }

  func text(_ column: String) -> String? {
    guard case .string(let text) = value(column) else { return nil }
    return text
  }

  func trimmed(_ column: String) -> String? {
    guard let value = text(column) else { return nil }
    let trimmed = Whitespace.trimmed(value)
    return trimmed.isEmpty ? nil : trimmed
  }

  /// A name as the app itself keeps one: trimmed, inner runs of whitespace collapsed to
  /// one space ("Crème  Fraîche" → "Crème Fraîche"); nil when blank.
  func name(_ column: String) -> String? {
    guard let value = text(column) else { return nil }
    if Self.isTidyASCII(value) { return value }
    let collapsed = value.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    return collapsed.isEmpty ? nil : collapsed
  }

  func flag(_ column: String) -> Bool { number(column) != 0 }

  func number(_ column: String) -> Int64 {
    guard case .int64(let number) = value(column) else { return 0 }
    return number
  }

  /// A Core Data date: seconds since 2001-01-01.
  func date(_ column: String) -> Date? {
    guard case .double(let seconds) = value(column) else { return nil }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  /// Visible ASCII with single spaces between words and none at the ends: a name that is
  /// already as ``name(_:)`` would make it (nearly every name).
  private static func isTidyASCII(_ text: String) -> Bool {
    var previous: UInt8 = 0x20
    for byte in text.utf8 {
      guard byte < 0x80, byte >= 0x20, !(byte == 0x20 && previous == 0x20) else { return false }
      previous = byte
    }
    return previous != 0x20
  }
}

/// Ids of version-1 rows: the row's own UUID when it has a valid, unused one, else a
/// name-based id derived from the table and row number (Core Data's `id` was optional),
/// so a rerun gives the same ids.
struct LegacyIDs {
  private var used: [String: Set<UUID>] = [:]
  /// Ids, per table, that a row kept from its own legacy id text, so references may name them.
  private var kept: [String: Set<UUID>] = [:]

  mutating func assign(_ row: LegacyRow, table: String) -> UUID {
    let parsed = row.text("id").flatMap(Self.parse)
    if let parsed, used[table, default: []].insert(parsed).inserted {
      kept[table, default: []].insert(parsed)
      return parsed
    }
    let derived = DeterministicID.uuidV5(namespace: DeterministicID.namespace, name: "legacy:\(table):\(row.rowID)")
    used[table, default: []].insert(derived)
    return derived
  }

  /// The id a reference names, when it names a row of one of `tables`.
  func resolve(_ text: String?, in tables: String...) -> UUID? {
    guard let parsed = text.flatMap(Self.parse) else { return nil }
    for table in tables where kept[table]?.contains(parsed) == true { return parsed }
    return nil
  }

  /// A legacy id text, trimmed, in any case: Model's parser for the usual 8-4-4-4-12 form
  /// (Foundation's goes through `sscanf`, a seventh of stage A on 50k rows), Foundation's
  /// for whatever else it accepts, so the ids kept are the same either way.
  private static func parse(_ text: String) -> UUID? {
    let trimmed = Whitespace.trimmed(text, newlines: false)
    return UUID(hyphenatedHex: trimmed) ?? UUID(uuidString: trimmed)
  }
}
