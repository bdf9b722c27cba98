import Foundation
import GRDB
import Model
import Persistence

/// How one kind's records map onto its table: column order, SQL, value conversion.
struct TableLayout: Sendable {
  let kind: EntityKind
  let schema: EntitySchema
  let table: String
  let columns: [String]
  let selectColumns: String
  let insertSQL: String
  let updateSQL: String

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
    let quoted = columns.map(\.quotedDatabaseIdentifier)
    selectColumns = quoted.joined(separator: ", ")
    insertSQL = "INSERT INTO \(table.quotedDatabaseIdentifier) (\(selectColumns)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    updateSQL = "UPDATE \(table.quotedDatabaseIdentifier) SET \(quoted.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
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
    values.reserveCapacity(columns.count)
    for field in schema.fields { values.append(Self.databaseValue(record[field.name])) }
    return values
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

  func record(from row: Row) throws -> Record {
    guard let idText = row[0] as String?, let id = UUID(uuidString: idText),
      let created = row[1] as Double?, let updated = row[2] as Double?
    else { throw StoreError.backend("damaged \(kind.rawValue) row: bad id or timestamps") }
    let deleted = row[3] as Double?
    let owner = (row[4] as String?) ?? RecordMetadata.localOwner
    let scope = (row[5] as String?).flatMap(SharingScope.init(rawValue:)) ?? .private
    let meta = RecordMetadata(
      id: id, createdAt: Date(timeIntervalSinceReferenceDate: created),
      updatedAt: Date(timeIntervalSinceReferenceDate: updated),
      deletedAt: deleted.map(Date.init(timeIntervalSinceReferenceDate:)), ownerID: owner, sharingScope: scope
    )
    var fields: [String: FieldValue] = [:]
    fields.reserveCapacity(schema.fields.count)
    for (offset, field) in schema.fields.enumerated() {
      let value = try Self.fieldValue(row[Self.metadataColumns.count + offset] as DatabaseValue, field, kind)
      if !value.isNull { fields[field.name] = value }
    }
    return Record(kind: kind, meta: meta, fields: fields)
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
      guard let text = String.fromDatabaseValue(value), let id = UUID(uuidString: text) else { throw damaged() }
      return .reference(id)
    case .textList:
      guard let text = String.fromDatabaseValue(value), let list = FieldValue.decodeJSONArray(text) else { throw damaged() }
      return .textList(list)
    case .referenceList:
      guard let text = String.fromDatabaseValue(value), let list = FieldValue.decodeJSONArray(text) else { throw damaged() }
      let ids = list.compactMap(UUID.init(uuidString:))
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
  var storageText: String { uuidString.lowercased() }
}
