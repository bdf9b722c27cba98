public import Foundation

/// A typed entity value that converts to and from a stored ``Record``.
///
/// Every kind in ``EntityKind`` has exactly one conforming type, listed in
/// ``EntitySchema/allEntityTypes``. Entities are plain values: creating one changes
/// nothing; only repositories persist them.
public protocol Entity: Sendable, Hashable {
  /// The kind's schema: fields, relationships, semantic key and identity policy.
  static var schema: EntitySchema { get }
  var meta: RecordMetadata { get set }
  /// Reads an entity from a stored record of its kind.
  /// - Throws: ``ModelError`` when a field is missing or has the wrong type.
  init(record: Record) throws(ModelError)
  /// The field values of this entity, keyed by schema field names.
  var fieldValues: [String: FieldValue] { get }
}

extension Entity {
  public static var kind: EntityKind { schema.kind }
  public var id: UUID { meta.id }
  public var isLive: Bool { meta.isLive }
  /// The stored form of this entity.
  public var record: Record { Record(kind: Self.kind, meta: meta, fields: fieldValues) }
  /// The semantic key, for kinds that have one.
  public var semanticKey: String? { record.semanticKey }
}

/// Typed access to a record's fields, with errors that name the field.
struct FieldReader {
  let record: Record

  init(_ record: Record, expecting kind: EntityKind) throws(ModelError) {
    guard record.kind == kind else {
      throw ModelError(kind: kind, id: record.id, field: "kind", reason: "is \(record.kind.rawValue), expected \(kind.rawValue)")
    }
    self.record = record
  }

  private func mismatch(_ field: String, _ expected: String) -> ModelError {
    ModelError(kind: record.kind, id: record.id, field: field, reason: "is not \(expected) (\(record[field]))")
  }

  func text(_ field: String) throws(ModelError) -> String {
    guard case .text(let value) = record[field] else { throw mismatch(field, "text") }
    return value
  }

  func optionalText(_ field: String) throws(ModelError) -> String? {
    switch record[field] {
    case .null: return nil
    case .text(let value): return value
    default: throw mismatch(field, "text")
    }
  }

  func integer(_ field: String, default defaultValue: Int64 = 0) throws(ModelError) -> Int64 {
    switch record[field] {
    case .null: return defaultValue
    case .integer(let value): return value
    default: throw mismatch(field, "an integer")
    }
  }

  func optionalReal(_ field: String) throws(ModelError) -> Double? {
    switch record[field] {
    case .null: return nil
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: throw mismatch(field, "a number")
    }
  }

  func bool(_ field: String) throws(ModelError) -> Bool {
    switch record[field] {
    case .null: return false
    case .bool(let value): return value
    case .integer(let value): return value != 0
    default: throw mismatch(field, "a boolean")
    }
  }

  func optionalTimestamp(_ field: String) throws(ModelError) -> Date? {
    switch record[field] {
    case .null: return nil
    case .timestamp(let value): return value
    default: throw mismatch(field, "a timestamp")
    }
  }

  func optionalReference(_ field: String) throws(ModelError) -> UUID? {
    switch record[field] {
    case .null: return nil
    case .reference(let value): return value
    default: throw mismatch(field, "a reference")
    }
  }

  func reference(_ field: String) throws(ModelError) -> UUID {
    guard case .reference(let value) = record[field] else { throw mismatch(field, "a reference") }
    return value
  }

  func references(_ field: String) throws(ModelError) -> [UUID] {
    switch record[field] {
    case .null: return []
    case .referenceList(let value): return value
    default: throw mismatch(field, "a reference list")
    }
  }

  func textList(_ field: String) throws(ModelError) -> [String] {
    switch record[field] {
    case .null: return []
    case .textList(let value): return value
    default: throw mismatch(field, "a text list")
    }
  }

  func enumeration<E: RawRepresentable<String>>(_ field: String, as type: E.Type) throws(ModelError) -> E {
    let raw = try text(field)
    guard let value = E(rawValue: raw) else { throw mismatch(field, "a known \(E.self)") }
    return value
  }

  func optionalEnumeration<E: RawRepresentable<String>>(_ field: String, as type: E.Type) throws(ModelError) -> E? {
    guard let raw = try optionalText(field) else { return nil }
    guard let value = E(rawValue: raw) else { throw mismatch(field, "a known \(E.self)") }
    return value
  }

  func civilDate(_ field: String) throws(ModelError) -> CivilDate {
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
