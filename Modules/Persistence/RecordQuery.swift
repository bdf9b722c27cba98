public import Foundation
public import Model
import Normalization

/// A condition on one field of a record.
public indirect enum RecordFilter: Sendable, Hashable {
  /// The field equals the value (`.null` matches absent values).
  case equals(String, FieldValue)
  /// The text field, or any element of the text-list field, contains the substring,
  /// ignoring ASCII letter case.
  case contains(String, String)
  /// The reference field is the id, or the reference-list field contains it.
  case references(String, UUID)
  /// The text-list field has an element equal to the text (exactly, case included).
  /// Backends may index it: the SQLite backend keeps the elements of the text lists of
  /// unique kinds (ingredient aliases) in a side table, and the in-memory backend the ids
  /// holding each element of every text-list field, so the lookup does not scan.
  case hasElement(String, String)
  /// The text field starts with the text, ignoring ASCII letter case (as `.contains`).
  /// Backends may index it: the SQLite backend answers it from the field's index when
  /// the schema marks the field indexed (`FieldDescriptor/isIndexed`), so completing a
  /// name reads the names that match, not every name.
  case hasPrefix(String, String)
  /// The text field, normalized as a name (``normalizedName(_:)``), equals the key (a
  /// normalized name itself): how a record without a semantic key is found by the name
  /// people remember ("epicerie" finds "Épicerie"). Only on fields the schema marks
  /// `Model/FieldDescriptor/isLookedUpByName`; the SQLite backend answers it from an
  /// indexed lookup column it keeps, so the lookup reads the matching records only.
  case hasNormalizedName(String, String)
  /// Any of the filters holds.
  case anyOf([RecordFilter])

  /// The fields the filter reads.
  public var fieldNames: [String] {
    switch self {
    case .equals(let field, _), .contains(let field, _), .references(let field, _), .hasElement(let field, _), .hasPrefix(let field, _),
      .hasNormalizedName(let field, _):
      [field]
    case .anyOf(let filters): filters.flatMap(\.fieldNames)
    }
  }
}

/// An ordering key: a schema field or one of the metadata fields `createdAt`, `updatedAt`.
public struct SortKey: Sendable, Hashable {
  /// The field sorted on.
  public let field: String
  /// Whether smaller values come first.
  public let ascending: Bool

  /// A key sorting on `field`.
  public init(_ field: String, ascending: Bool = true) {
    self.field = field
    self.ascending = ascending
  }

  /// Metadata fields that can be sorted on besides schema fields.
  public static let metadataFields: Set<String> = ["createdAt", "updatedAt"]
}

/// A filtered, sorted, limited listing of one kind.
///
/// Filters combine with AND. Records sort by `sort`, then by id, so the order is total
/// and the same on every backend. Text sorts by its UTF-8 bytes; null sorts first.
public struct RecordQuery: Sendable, Hashable {
  /// The kind listed.
  public var kind: EntityKind
  /// Conditions every listed record meets.
  public var filters: [RecordFilter]
  /// Whether tombstones are listed too.
  public var includeDeleted: Bool
  /// The ordering, before the id that breaks ties.
  public var sort: [SortKey]
  /// The most records listed; nil for all.
  public var limit: Int?
  /// How many records to skip first.
  public var offset: Int

  /// A query of `kind`; without `sort`, records sort by the kind's display field.
  public init(
    _ kind: EntityKind, filters: [RecordFilter] = [], includeDeleted: Bool = false, sort: [SortKey]? = nil,
    limit: Int? = nil, offset: Int = 0
  ) {
    self.kind = kind
    self.filters = filters
    self.includeDeleted = includeDeleted
    self.sort = sort ?? [SortKey(kind.schema.displayField)]
    self.limit = limit
    self.offset = offset
  }

  /// Checks that every field the query names exists in its kind's schema.
  /// - Throws: ``StoreError/unknownField(kind:field:)``.
  public func validate() throws(StoreError) {
    let schema = kind.schema
    for name in filters.flatMap(\.fieldNames) where schema.field(named: name) == nil {
      throw StoreError.unknownField(kind: kind, field: name)
    }
    for filter in filters { try filter.validateValues(in: schema) }
    for key in sort where schema.field(named: key.field) == nil && !SortKey.metadataFields.contains(key.field) {
      throw StoreError.unknownField(kind: kind, field: key.field)
    }
  }
}

extension StoreError {
  /// Throws unless `field` is an integer field of `kind`: what every backend checks before
  /// ``StoreReader/largestInteger(_:field:)``.
  package static func requireIntegerField(_ kind: EntityKind, _ field: String) throws(StoreError) {
    guard let descriptor = kind.schema.field(named: field) else { throw .unknownField(kind: kind, field: field) }
    guard case .integer = descriptor.type else {
      throw .invalidQuery(kind: kind, field: field, reason: "is not an integer field")
    }
  }
}

extension RecordFilter {
  /// Checks that `equals` compares a field with a value of the field's own type, so a
  /// query means the same on every backend.
  fileprivate func validateValues(in schema: EntitySchema) throws(StoreError) {
    switch self {
    case .equals(let name, let value):
      guard !value.isNull, let field = schema.field(named: name) else { return }
      if let reason = Record.typeMismatch(value, field.type) {
        throw StoreError.invalidQuery(kind: schema.kind, field: name, reason: "compared value \(reason)")
      }
    case .hasNormalizedName(let name, _):
      guard let field = schema.field(named: name), field.isLookedUpByName, case .text = field.type else {
        throw StoreError.invalidQuery(
          kind: schema.kind, field: name, reason: "is not looked up by name (only fields the schema marks lookedUpByName are)")
      }
    case .anyOf(let filters):
      for filter in filters { try filter.validateValues(in: schema) }
    case .contains, .references, .hasElement, .hasPrefix:
      return
    }
  }
}

extension RecordFilter {
  /// A name as ``hasNormalizedName(_:_:)`` compares it: Unicode NFKC, case folded,
  /// accents stripped, trimmed, inner whitespace collapsed (`SemanticKey.normalizedName`,
  /// the rule of every name key). "  Épicerie  DU Coin" → "epicerie du coin".
  public static func normalizedName(_ name: String) -> String {
    SemanticKey.normalizedName(name)
  }
}
