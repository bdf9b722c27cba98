public import Foundation

/// A stored record of any kind: metadata plus named field values.
///
/// This is what a `Store` reads and writes. Application code works with the typed entity
/// values (``Category``, ``Recipe`` …) and converts with ``Entity/record`` and
/// ``Entity/init(record:)``; only repositories create records.
///
/// The values are kept in the order of the kind's schema fields (``EntitySchema/fields``),
/// so that the code that reads or writes every field of a record (a backend's row, the
/// schema check, sync's view) goes by position instead of hashing each field's name.
/// Reading or writing one field by name finds its position among the kind's few fields.
public struct Record: Sendable, Hashable {
  /// The record's kind.
  public var kind: EntityKind
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// One value per schema field, in schema order; `.null` where the field is absent.
  package private(set) var values: [FieldValue]
  /// Values of names the schema does not have (a damaged or foreign record, which the
  /// schema check refuses). Empty for every record a store holds.
  private var unknown: [String: FieldValue]

  /// A record of `kind` with these fields; fields the schema does not name are kept for the schema check to refuse.
  public init(kind: EntityKind, meta: RecordMetadata, fields: [String: FieldValue]) {
    let schema = kind.schema
    self.kind = kind
    self.meta = meta
    var values = [FieldValue](repeating: .null, count: schema.fields.count)
    var unknown: [String: FieldValue] = [:]
    for (name, value) in fields where !value.isNull {
      if let position = schema.position(of: name) { values[position] = value } else { unknown[name] = value }
    }
    self.values = values
    self.unknown = unknown
  }

  /// A record from one value per schema field, in schema order (`.null` for an absent
  /// field), as a backend decodes a row or sync's view computes one.
  package init(kind: EntityKind, meta: RecordMetadata, values: [FieldValue]) {
    precondition(values.count == kind.schema.fields.count, "\(kind.rawValue) record given \(values.count) values")
    self.kind = kind
    self.meta = meta
    self.values = values
    self.unknown = [:]
  }

  /// The record's id.
  public var id: UUID { meta.id }

  /// Field values keyed by the field names of the kind's schema. Null values are not
  /// kept: a field that is absent reads as `.null`, so two records with the same values
  /// are equal however they were built.
  public var fields: [String: FieldValue] {
    var fields = unknown
    for (field, value) in zip(kind.schema.fields, values) where !value.isNull { fields[field.name] = value }
    return fields
  }

  /// The value of a field, `.null` when absent.
  public subscript(field: String) -> FieldValue {
    get {
      if let position = kind.schema.position(of: field) { return values[position] }
      return unknown[field] ?? .null
    }
    set {
      if let position = kind.schema.position(of: field) {
        values[position] = newValue
      } else {
        unknown[field] = newValue.isNull ? nil : newValue
      }
    }
  }

  /// The value of the schema field at `position` (``EntitySchema/fields``).
  package subscript(position position: Int) -> FieldValue {
    get { values[position] }
    set { values[position] = newValue }
  }

  /// The names of the fields that hold a value, sorted (what a change log lists for a new
  /// record), without building ``fields``.
  package var fieldNames: [String] {
    var names = unknown.isEmpty ? [] : Array(unknown.keys)
    for (field, value) in zip(kind.schema.fields, values) where !value.isNull { names.append(field.name) }
    return names.sorted()
  }

  /// The names of fields outside the kind's schema that hold a value, sorted.
  package var unknownFields: [String] { unknown.keys.sorted() }

  /// The record's display field as text: its name for people ("Produce", a book's title).
  public var displayText: String { self[kind.schema.displayField].displayText }

  /// The record's semantic key, when its kind has one and the key is set.
  public var semanticKey: String? {
    guard let field = kind.schema.semanticKeyField else { return nil }
    return self[field].text
  }

  /// The names of the fields whose values differ between `self` and `other`
  /// (absent and `.null` are equal), sorted.
  public func changedFields(comparedTo other: Record) -> [String] {
    guard other.kind == kind else {
      let (mine, theirs) = (fields, other.fields)
      var names = mine.compactMap { name, value in theirs[name] != value ? name : nil }
      names += theirs.keys.filter { mine[$0] == nil }
      return names.sorted()
    }
    var names: [String] = []
    for (field, (mine, theirs)) in zip(kind.schema.fields, zip(values, other.values)) where mine != theirs { names.append(field.name) }
    for (name, value) in unknown where other.unknown[name] != value { names.append(name) }
    for name in other.unknown.keys where unknown[name] == nil { names.append(name) }
    return names.sorted()
  }
}
