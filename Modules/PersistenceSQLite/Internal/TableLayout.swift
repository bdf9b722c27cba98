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
  /// SELECT of one row by id, and of the rows with a semantic key (live, or all), by id:
  /// built once, so hot paths neither format nor hash new SQL text.
  let selectByIDSQL: String
  let selectByKeySQL: String?
  let selectLiveByKeySQL: String?

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
    let select = "SELECT \(selectColumns) FROM \(table.quotedDatabaseIdentifier) WHERE"
    selectByIDSQL = "\(select) id = ?"
    selectByKeySQL = schema.semanticKeyField.map { "\(select) \($0.quotedDatabaseIdentifier) = ? ORDER BY id" }
    selectLiveByKeySQL = schema.semanticKeyField.map { "\(select) \($0.quotedDatabaseIdentifier) = ? AND deletedAt IS NULL ORDER BY id" }
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
    guard let idText = row[0] as String?, let id = UUID(storageText: idText),
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
  /// Formatted by hand: Foundation's `uuidString` plus `lowercased()` cost more than the
  /// indexed lookup the text is for.
  var storageText: String {
    let hex = UUID.hexDigits
    return withUnsafeBytes(of: uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { buffer in
        var count = 0
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
          }
          buffer[count] = hex[Int(byte >> 4)]
          buffer[count + 1] = hex[Int(byte & 0x0F)]
          count += 2
        }
        return count
      }
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Parses the 36-character form ids are stored in (either case) without Foundation's
  /// `sscanf`-based parser; anything else is left to `UUID(uuidString:)`.
  init?(storageText text: String) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    var high: UInt8?
    var valid = text.utf8.count == 36
    if valid {
      for (index, character) in text.utf8.enumerated() {
        if index == 8 || index == 13 || index == 18 || index == 23 {
          guard character == UInt8(ascii: "-") else { valid = false; break }
          continue
        }
        guard let nibble = Self.nibble(character) else {
          valid = false
          break
        }
        if let first = high {
          bytes.append(first << 4 | nibble)
          high = nil
        } else {
          high = nibble
        }
      }
    }
    guard valid, bytes.count == 16 else {
      guard let parsed = UUID(uuidString: text) else { return nil }
      self = parsed
      return
    }
    self.init(uuid: (
      bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
      bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
    ))
  }
}
