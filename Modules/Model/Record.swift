public import Foundation

/// A stored record of any kind: metadata plus named field values.
///
/// This is what a `Store` reads and writes. Application code works with the typed entity
/// values (``Category``, ``Recipe`` …) and converts with ``Entity/record`` and
/// ``Entity/init(record:)``; only repositories create records.
public struct Record: Sendable, Hashable {
  public var kind: EntityKind
  public var meta: RecordMetadata
  /// Field values keyed by the field names of the kind's schema. Null values are not
  /// kept: a field that is absent reads as `.null`, so two records with the same values
  /// are equal however they were built.
  public private(set) var fields: [String: FieldValue]

  public init(kind: EntityKind, meta: RecordMetadata, fields: consuming [String: FieldValue]) {
    self.kind = kind
    self.meta = meta
    // The nulls removed in place (the dictionary is the caller's to give): filtering
    // would build a new one and hash every key again, for the one or two optional fields
    // a typed entity leaves empty.
    var nulls: [String] = []
    // `fields` is consumed: a for-in loop would consume it here, forEach borrows it.
    // swift-format-ignore: ReplaceForEachWithForLoop
    fields.forEach { name, value in if value.isNull { nulls.append(name) } }
    for name in nulls { fields.removeValue(forKey: name) }
    self.fields = fields
  }

  /// A record whose `fields` hold no null, as a backend decodes a row (it leaves a null
  /// column out): ``init(kind:meta:fields:)`` without its scan for nulls.
  package init(kind: EntityKind, meta: RecordMetadata, nonNullFields fields: [String: FieldValue]) {
    self.kind = kind
    self.meta = meta
    self.fields = fields
  }

  public var id: UUID { meta.id }

  /// The value of a field, `.null` when absent.
  public subscript(field: String) -> FieldValue {
    get { fields[field] ?? .null }
    set { fields[field] = newValue.isNull ? nil : newValue }
  }

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
    // Stored values are never null: a field of one record that the other lacks differs.
    var names: [String] = []
    for (name, value) in fields where other.fields[name] != value { names.append(name) }
    for name in other.fields.keys where fields[name] == nil { names.append(name) }
    return names.sorted()
  }
}
