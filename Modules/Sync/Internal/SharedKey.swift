import Foundation
import Model
import Persistence

/// A semantic key of a unique kind, as the key index holds it.
struct SharedKey: Hashable {
  let kind: EntityKind
  let key: String

  /// The key a state of a unique kind is one entity with others by: the key its identity
  /// fields give (`Record.key(of:_:)`), whatever its key register holds, or its key
  /// register when it lacks a field the key is computed from.
  init?(_ state: RecordState) {
    self.init(state.kind) { state[$0]?.value }
  }

  init(kind: EntityKind, key: String) {
    self.kind = kind
    self.key = key
  }

  /// The key a record of a unique kind is one entity with others by, from `value` (its
  /// fields as a state's registers, a row or an arriving change hold them): the key its
  /// identity fields give when it holds every required one (a field it lacks reads as its
  /// default), else what its key field holds. A key field that disagrees with the fields
  /// (a batch an old build wrote, a name written without its key) never decides.
  init?(_ kind: EntityKind, keyFieldValue value: (String) -> FieldValue?) {
    let schema = kind.schema
    guard schema.identity.isUnique, let keyField = schema.semanticKeyField else { return nil }
    if let computed = Self.computed(kind, schema, value) {
      self.init(kind: kind, key: computed)
      return
    }
    guard let text = value(keyField)?.text, !text.isEmpty else { return nil }
    self.init(kind: kind, key: text)
  }

  /// The key the identity fields `value` holds give, or nil when a required one is missing.
  static func computed(_ kind: EntityKind, _ schema: EntitySchema, _ value: (String) -> FieldValue?) -> String? {
    guard holdsKeyInputs(schema, value) else { return nil }
    let key = Record.key(of: kind) { name in value(name) ?? schema.field(named: name)?.defaultValue ?? .null }
    guard let key, !key.isEmpty else { return nil }
    return key
  }

  /// Whether `value` holds every field the key is computed from that has no default and is
  /// not optional (a field it lacks then reads as its default, or null).
  static func holdsKeyInputs(_ schema: EntitySchema, _ value: (String) -> FieldValue?) -> Bool {
    schema.keyInputs.allSatisfy { name in
      value(name) != nil || schema.field(named: name).map { $0.isOptional || $0.defaultValue != nil } == true
    }
  }
}
