public import Foundation

/// A typed entity value that converts to and from a stored ``Record``.
///
/// Every kind in ``EntityKind`` has exactly one conforming type, listed in
/// ``EntitySchema/allEntityTypes``. Entities are plain values: creating one changes
/// nothing; only repositories persist them.
public protocol Entity: Sendable, Hashable {
  /// The kind's schema: fields, relationships, semantic key and identity policy.
  static var schema: EntitySchema { get }
  /// The record's id, dates, owner and sharing scope.
  var meta: RecordMetadata { get set }
  /// Reads an entity from a stored record of its kind.
  /// - Throws: ``ModelError`` when a field is missing or has the wrong type.
  init(record: Record) throws(ModelError)
  /// The field values of this entity, keyed by schema field names.
  var fieldValues: [String: FieldValue] { get }
}

extension Entity {
  /// The entity's kind.
  public static var kind: EntityKind { schema.kind }
  /// The record's id.
  public var id: UUID { meta.id }
  /// Whether the record is live (not a tombstone).
  public var isLive: Bool { meta.isLive }
  /// The stored form of this entity.
  public var record: Record { Record(kind: Self.kind, meta: meta, fields: fieldValues) }
  /// The semantic key, for kinds that have one.
  public var semanticKey: String? { record.semanticKey }
}

/// Typed access to a record's fields, with errors that name the field.
///
/// An entity reads its fields in schema order, so the reader looks first at the field
/// after the last one read: one name compared per field instead of a scan of the schema's
/// names (a third of decoding an ingredient template went to those scans).
struct FieldReader {
  let record: Record
  private let schema: EntitySchema
  /// The position after the last field read.
  private var next = 0

  init(_ record: Record, expecting kind: EntityKind) throws(ModelError) {
    guard record.kind == kind else {
      throw ModelError(kind: kind, id: record.id, field: "kind", reason: "is \(record.kind.rawValue), expected \(kind.rawValue)")
    }
    self.record = record
    schema = kind.schema
  }

  /// The value of a field, `.null` when absent.
  private mutating func value(_ field: String) -> FieldValue {
    let fields = schema.fields
    if next < fields.count, fields[next].name == field {
      next += 1
      return record[position: next - 1]
    }
    guard let position = schema.position(of: field) else { return record[field] }
    next = position + 1
    return record[position: position]
  }

  private func mismatch(_ field: String, _ expected: String) -> ModelError {
    ModelError(kind: record.kind, id: record.id, field: field, reason: "is not \(expected) (\(record[field]))")
  }

  mutating func text(_ field: String) throws(ModelError) -> String {
    guard case .text(let value) = value(field) else { throw mismatch(field, "text") }
    return value
  }

  mutating func optionalText(_ field: String) throws(ModelError) -> String? {
    switch value(field) {
    case .null: return nil
    case .text(let value): return value
    default: throw mismatch(field, "text")
    }
  }

  mutating func integer(_ field: String, default defaultValue: Int64 = 0) throws(ModelError) -> Int64 {
    switch value(field) {
    case .null: return defaultValue
    case .integer(let value): return value
    default: throw mismatch(field, "an integer")
    }
  }

  mutating func optionalReal(_ field: String) throws(ModelError) -> Double? {
    switch value(field) {
    case .null: return nil
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: throw mismatch(field, "a number")
    }
  }

  mutating func bool(_ field: String) throws(ModelError) -> Bool {
    switch value(field) {
    case .null: return false
    case .bool(let value): return value
    case .integer(let value): return value != 0
    default: throw mismatch(field, "a boolean")
    }
  }

  mutating func optionalTimestamp(_ field: String) throws(ModelError) -> Date? {
    switch value(field) {
    case .null: return nil
    case .timestamp(let value): return value
    default: throw mismatch(field, "a timestamp")
    }
  }

  mutating func optionalReference(_ field: String) throws(ModelError) -> UUID? {
    switch value(field) {
    case .null: return nil
    case .reference(let value): return value
    default: throw mismatch(field, "a reference")
    }
  }

  mutating func reference(_ field: String) throws(ModelError) -> UUID {
    guard case .reference(let value) = value(field) else { throw mismatch(field, "a reference") }
    return value
  }

  mutating func references(_ field: String) throws(ModelError) -> [UUID] {
    switch value(field) {
    case .null: return []
    case .referenceList(let value): return value
    default: throw mismatch(field, "a reference list")
    }
  }

  mutating func textList(_ field: String) throws(ModelError) -> [String] {
    switch value(field) {
    case .null: return []
    case .textList(let value): return value
    default: throw mismatch(field, "a text list")
    }
  }

  mutating func enumeration<E: RawRepresentable<String>>(_ field: String, as type: E.Type) throws(ModelError) -> E {
    let raw = try text(field)
    guard let value = E(rawValue: raw) else { throw mismatch(field, "a known \(E.self)") }
    return value
  }

  mutating func optionalEnumeration<E: RawRepresentable<String>>(_ field: String, as type: E.Type) throws(ModelError) -> E? {
    guard let raw = try optionalText(field) else { return nil }
    guard let value = E(rawValue: raw) else { throw mismatch(field, "a known \(E.self)") }
    return value
  }

  mutating func civilDate(_ field: String) throws(ModelError) -> CivilDate {
    let raw = try text(field)
    guard let value = CivilDate(iso: raw) else { throw mismatch(field, "a civil date") }
    return value
  }
}

extension FieldValue {
  init(_ text: String?) { self = text.map(FieldValue.text) ?? .null }
  init(_ date: Date?) { self = date.map(FieldValue.timestamp) ?? .null }
  init(_ id: UUID?) { self = id.map(FieldValue.reference) ?? .null }
  init(_ number: Double?) { self = number.map(FieldValue.real) ?? .null }
}
