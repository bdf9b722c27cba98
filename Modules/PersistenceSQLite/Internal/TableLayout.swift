import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence
import Synchronization

/// How one kind's records map onto its table: column order, SQL, value conversion.
struct TableLayout: Sendable {
  let kind: EntityKind
  let schema: EntitySchema
  let table: String
  let columns: [String]
  /// The local lookup columns of the fields people find records by (``LookupColumns``),
  /// written after ``columns`` and never read back into a record.
  let lookups: [LookupColumns.Entry]
  let selectColumns: String
  /// The INSERT and UPDATE of one row use the FAIL conflict resolution, not SQLite's
  /// default ABORT. A statement that may write several b-trees (the row and a trigger's
  /// side table) and stop on a constraint with ABORT runs in a statement transaction: a
  /// savepoint, and a journal of every page it changes, so that it can be undone alone.
  /// That was ≈ a quarter of a template's INSERT. FAIL keeps what a statement wrote before
  /// its failure, and a statement of one row writes nothing before it fails: SQLite checks
  /// NOT NULL, the primary key and the unique indexes before it writes the row or any
  /// index entry, and the triggers that follow (list elements, text search) read only
  /// values the row has passed ``Record/validateAgainstSchema()`` with; an error there (out
  /// of memory, a disk error) is not a refusal anyone catches, and it rolls back the whole
  /// write transaction it leaves. `ElementFilterTests.aRefusedRowWriteLeavesNoElementsBehind`,
  /// Docs/PERFORMANCE.md, "Hand-written code and its measured reasons".
  let insertSQL: String
  let updateSQL: String
  /// SELECT of one row by id, and of the rows with a semantic key (live, or all), by id:
  /// built once, so hot paths neither format nor hash new SQL text.
  let selectByIDSQL: String
  /// SELECT of the rows whose ids a bound JSON array lists.
  let selectByIDsSQL: String
  let selectByKeySQL: String?
  let selectLiveByKeySQL: String?
  /// SELECT of the live rows whose list field holds an element, by id, for each list field
  /// with a side table (``ElementIndex``): the text ``SQLiteTransaction/fetch(_:)`` builds
  /// for that one filter, made once.
  let selectLiveByElementSQL: [String: String]
  /// The storage class ``record(from:)`` reads each field from, in column
  /// order after the metadata: decoding a row copied each field's descriptor (whose type
  /// may hold a list of cases) for every column.
  private let fieldStorage: [ColumnStorage]
  /// The texts of partial UPDATEs made so far, by set of columns.
  private let updateTexts = UpdateTexts()

  private static let layouts: [EntityKind: TableLayout] = Dictionary(
    uniqueKeysWithValues: EntityKind.allCases.map { ($0, TableLayout(kind: $0)) }
  )

  static let metadataColumns = ["id", "createdAt", "updatedAt", "deletedAt", "ownerID", "sharingScope"]

  static func of(_ kind: EntityKind) -> TableLayout {
    layouts[kind] ?? TableLayout(kind: kind)
  }

  private init(kind: EntityKind) {
    self.kind = kind
    schema = kind.schema
    table = kind.rawValue
    columns = Self.metadataColumns + schema.fields.map(\.name)
    lookups = LookupColumns.entries(of: schema)
    fieldStorage = schema.fields.map { ColumnStorage($0.type) }
    selectColumns = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    let written = (columns + lookups.map(\.column)).map(\.quotedDatabaseIdentifier)
    insertSQL =
      "INSERT OR FAIL INTO \(table.quotedDatabaseIdentifier) (\(written.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: written.count).joined(separator: ", ")))"
    updateSQL =
      "UPDATE OR FAIL \(table.quotedDatabaseIdentifier) SET \(written.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
    let select = "SELECT \(selectColumns) FROM \(table.quotedDatabaseIdentifier) WHERE"
    selectByIDSQL = "\(select) id = ?"
    selectByIDsSQL = "\(select) id IN (SELECT value FROM json_each(?))"
    // A unique kind's key is indexed over live rows and over tombstones apart
    // (`SchemaBuilder.createUniqueIndex`): all rows of a key are the two reads together.
    // A file of schema v2 indexes the key over all rows, which answers both reads too.
    let isUnique = kind.schema.identity.isUnique
    selectByKeySQL = schema.semanticKeyField.map { field in
      let key = field.quotedDatabaseIdentifier
      guard isUnique else { return "\(select) \(key) = ? ORDER BY id" }
      return "\(select) \(key) = ?1 AND deletedAt IS NULL UNION ALL \(select) \(key) = ?1 AND deletedAt IS NOT NULL ORDER BY id"
    }
    // A unique kind has at most one live record per key (its unique index over live rows
    // says so), and ordering that one row still cost SQLite a sorter for every lookup.
    let liveOrder = isUnique ? "" : " ORDER BY id"
    selectLiveByKeySQL = schema.semanticKeyField.map { "\(select) \($0.quotedDatabaseIdentifier) = ? AND deletedAt IS NULL\(liveOrder)" }
    let name = kind.rawValue
    selectLiveByElementSQL = Dictionary(
      uniqueKeysWithValues: ElementIndex.entries.filter { $0.table == name }.map { entry in
        let side = entry.sideTable.quotedDatabaseIdentifier
        return (entry.field, "\(select) deletedAt IS NULL AND id IN (SELECT id FROM \(side) WHERE value = ?) ORDER BY id ASC")
      })
  }

  /// Partial UPDATE texts of one table, by set of columns (tables of at most 64 columns).
  private final class UpdateTexts: Sendable {
    private let texts = Mutex<[UInt64: String]>([:])

    /// The UPDATE setting the columns of `set` (bit i: columns[i]), by id.
    func text(for set: UInt64, columns: [String], table: String) -> String {
      if let text = texts.withLock({ $0[set] }) { return text }
      let assignments = columns.indices.filter { set & (1 << UInt64($0)) != 0 }
        .map { "\(columns[$0].quotedDatabaseIdentifier) = ?" }
      let text = "UPDATE OR FAIL \(table.quotedDatabaseIdentifier) SET \(assignments.joined(separator: ", ")) WHERE id = ?"
      texts.withLock { $0[set] = text }
      return text
    }
  }

  /// How a field's column is read when it holds the storage class its type is written as.
  private enum ColumnStorage {
    case text, integer, bool, real, timestamp, reference, textList, other

    init(_ type: FieldType) {
      switch type {
      case .text, .civilDate, .duration, .enumeration: self = .text
      case .integer: self = .integer
      case .bool: self = .bool
      case .real: self = .real
      case .timestamp: self = .timestamp
      case .reference: self = .reference
      case .textList: self = .textList
      case .referenceList: self = .other
      }
    }
  }

  static func sqlType(_ type: FieldType) -> String {
    switch type {
    case .integer, .bool: "INTEGER"
    case .real, .timestamp: "REAL"
    default: "TEXT"
    }
  }

  // MARK: Values

  func arguments(for record: Record) -> [DatabaseValue] {
    let meta = record.meta
    var values: [DatabaseValue] = [
      meta.id.storageText.databaseValue,
      meta.createdAt.timeIntervalSinceReferenceDate.databaseValue,
      meta.updatedAt.timeIntervalSinceReferenceDate.databaseValue,
      meta.deletedAt?.timeIntervalSinceReferenceDate.databaseValue ?? .null,
      meta.ownerID.databaseValue,
      meta.sharingScope.rawValue.databaseValue,
    ]
    values.reserveCapacity(columns.count + lookups.count)
    for value in record.values { values.append(Self.databaseValue(value)) }
    for lookup in lookups { values.append(lookup.value(of: record)) }
    return values
  }

  /// The UPDATE of `record` over `old` (the same row as stored) that sets only the
  /// metadata columns that differ and the columns of `fields`, with its arguments. An
  /// UPDATE rewrites the index entries of every column it names, changed or not, and a
  /// table has an index on its key (for unique kinds, two partial ones) and on each reference: bumping a
  /// template's usage count through an UPDATE of all columns cost several times the rest.
  /// Only the values it sets are converted, and its text is made once per set of columns.
  /// A field's lookup column is set with the field.
  func update(_ record: Record, from old: Record, fields: [String]) -> (sql: String, arguments: [DatabaseValue]) {
    var set: UInt64 = 0  // bit i: columns[i] is set
    var arguments: [DatabaseValue] = []
    arguments.reserveCapacity(fields.count + 3)
    let meta = record.meta, before = old.meta
    if meta.createdAt != before.createdAt {
      set |= 1 << 1
      arguments.append(meta.createdAt.timeIntervalSinceReferenceDate.databaseValue)
    }
    if meta.updatedAt != before.updatedAt {
      set |= 1 << 2
      arguments.append(meta.updatedAt.timeIntervalSinceReferenceDate.databaseValue)
    }
    if meta.deletedAt != before.deletedAt {
      set |= 1 << 3
      arguments.append(meta.deletedAt?.timeIntervalSinceReferenceDate.databaseValue ?? .null)
    }
    if meta.ownerID != before.ownerID {
      set |= 1 << 4
      arguments.append(meta.ownerID.databaseValue)
    }
    if meta.sharingScope != before.sharingScope {
      set |= 1 << 5
      arguments.append(meta.sharingScope.rawValue.databaseValue)
    }
    for (offset, field) in schema.fields.enumerated() where fields.contains(field.name) {
      set |= 1 << UInt64(Self.metadataColumns.count + offset)
      arguments.append(Self.databaseValue(record[position: offset]))
    }
    for (offset, lookup) in lookups.enumerated() where fields.contains(lookup.field) {
      set |= 1 << UInt64(columns.count + offset)
      arguments.append(lookup.value(of: record))
    }
    // A full UPDATE when nothing differs, or (no table has one yet) for a table too wide
    // for a set of columns in one word.
    guard set != 0, columns.count + lookups.count <= 64 else {
      return (updateSQL, Array(self.arguments(for: record).dropFirst()) + [meta.id.storageText.databaseValue])
    }
    arguments.append(meta.id.storageText.databaseValue)
    return (updateTexts.text(for: set, columns: columns + lookups.map(\.column), table: table), arguments)
  }

  static func databaseValue(_ value: FieldValue) -> DatabaseValue {
    switch value {
    case .null: .null
    case .text(let text): text.databaseValue
    case .integer(let number): number.databaseValue
    case .real(let number): number.databaseValue
    case .bool(let flag): (flag ? 1 : 0).databaseValue
    case .timestamp(let date): date.timeIntervalSinceReferenceDate.databaseValue
    case .reference(let id): id.storageText.databaseValue
    case .textList, .referenceList: value.storageText.databaseValue
    }
  }

  /// The record in the current row of a stepped SELECT of ``selectColumns``, read straight
  /// from the SQLite statement rather than through GRDB's `Row`, whose cursor builds a
  /// dictionary of lowercased column names for every query (as much work as the indexed
  /// lookup itself). Values of an unexpected storage class go through ``fieldValue(_:_:_:)``.
  func record(from statement: SQLiteStatement) throws -> Record {
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String { sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "" }
    guard !isNull(0), !isNull(1), !isNull(2), let id = UUID(storageColumn: statement, 0) else {
      throw StoreError.backend("damaged \(kind.rawValue) row: bad id or timestamps")
    }
    let meta = RecordMetadata(
      id: id, createdAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 1)),
      updatedAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 2)),
      deletedAt: isNull(3) ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 3)),
      ownerID: isNull(4) ? RecordMetadata.localOwner : text(4),
      sharingScope: isNull(5)
        ? .private : SharingScope(rawValue: text(5)) ?? .private
    )
    var values: [FieldValue] = []
    values.reserveCapacity(fieldStorage.count)
    var column = Int32(Self.metadataColumns.count)
    for storage in fieldStorage {
      defer { column += 1 }
      let type = sqlite3_column_type(statement, column)
      guard type != SQLITE_NULL else {
        values.append(.null)
        continue
      }
      let value: FieldValue
      switch (storage, type) {
      case (.integer, SQLITE_INTEGER): value = .integer(sqlite3_column_int64(statement, column))
      case (.bool, SQLITE_INTEGER): value = .bool(sqlite3_column_int64(statement, column) != 0)
      case (.real, SQLITE_FLOAT): value = .real(sqlite3_column_double(statement, column))
      case (.timestamp, SQLITE_FLOAT):
        value = .timestamp(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, column)))
      case (.reference, SQLITE_TEXT):
        guard let id = UUID(storageColumn: statement, column) else {
          throw Self.damaged(kind, field(at: column), text(column))
        }
        value = .reference(id)
      case (.textList, SQLITE_TEXT)
      where sqlite3_column_bytes(statement, column) == 2
        && text(column) == "[]":
        value = .textList([])
      case (.text, SQLITE_TEXT):
        value = .text(text(column))
      default:
        // Anything unusual (a list, or a value of another storage class than its
        // column's) takes the general conversion, with its checks and messages.
        value = try Self.fieldValue(DatabaseValue(sqliteStatement: statement, index: column), field(at: column), kind)
      }
      values.append(value)
    }
    return Record(kind: kind, meta: meta, values: values)
  }

  /// The field read from a column of ``selectColumns``.
  private func field(at column: Int32) -> FieldDescriptor {
    schema.fields[Int(column) - Self.metadataColumns.count]
  }

  private static func damaged(_ kind: EntityKind, _ field: FieldDescriptor, _ text: String) -> StoreError {
    .backend("damaged \(kind.rawValue).\(field.name) value: \(text)")
  }

  static func fieldValue(_ value: DatabaseValue, _ field: FieldDescriptor, _ kind: EntityKind) throws -> FieldValue {
    if value.isNull { return .null }
    func damaged() -> StoreError { .backend("damaged \(kind.rawValue).\(field.name) value: \(value)") }
    switch field.type {
    case .integer:
      guard let number = Int64.fromDatabaseValue(value) else { throw damaged() }
      return .integer(number)
    case .bool:
      guard let number = Int64.fromDatabaseValue(value) else { throw damaged() }
      return .bool(number != 0)
    case .real:
      guard let number = Double.fromDatabaseValue(value) else { throw damaged() }
      return .real(number)
    case .timestamp:
      guard let number = Double.fromDatabaseValue(value) else { throw damaged() }
      return .timestamp(Date(timeIntervalSinceReferenceDate: number))
    case .reference:
      guard let text = String.fromDatabaseValue(value), let id = UUID(storageText: text) else { throw damaged() }
      return .reference(id)
    case .textList:
      guard let text = String.fromDatabaseValue(value), let list = FieldValue.decodeJSONArray(text) else { throw damaged() }
      return .textList(list)
    case .referenceList:
      guard let text = String.fromDatabaseValue(value), let list = FieldValue.decodeJSONArray(text) else { throw damaged() }
      let ids = list.compactMap { UUID(storageText: $0) }
      guard ids.count == list.count else { throw damaged() }
      return .referenceList(ids)
    case .text, .civilDate, .duration, .enumeration:
      guard let text = String.fromDatabaseValue(value) else { throw damaged() }
      return .text(text)
    }
  }
}

extension UUID {
  /// Ids are stored as lowercase text, the same form the keeper order compares.
  var storageText: String { lowercaseText }

  /// Parses the 36-character form ids are stored in (either case) without Foundation's
  /// `sscanf`-based parser; anything else is left to `UUID(uuidString:)`.
  init?(storageText text: String) {
    if let parsed = UUID(hyphenatedHex: text) {
      self = parsed
      return
    }
    guard let parsed = UUID(uuidString: text) else { return nil }
    self = parsed
  }

  /// The id in a text column of the current row, parsed in place.
  init?(storageColumn statement: SQLiteStatement, _ column: Int32) {
    guard let text = sqlite3_column_text(statement, column) else { return nil }
    let count = Int(sqlite3_column_bytes(statement, column))
    if let parsed = UUID(hyphenatedHex: UnsafeBufferPointer(start: text, count: count)) {
      self = parsed
      return
    }
    self.init(storageText: String(cString: text))
  }
}
