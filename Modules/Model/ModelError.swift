public import Foundation

/// A record could not be read as an entity: a field is missing or holds the wrong type.
///
/// Seeing one means stored data does not match the schema, for example a record written
/// by a newer version of Forager.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of the record.
  public let kind: EntityKind
  /// The record's id.
  public let id: UUID
  /// The field at fault.
  public let field: String
  /// What is wrong with it.
  public let reason: String

  /// An error naming the record and field.
  public init(kind: EntityKind, id: UUID, field: String, reason: String) {
    self.kind = kind
    self.id = id
    self.field = field
    self.reason = reason
  }

  /// A message naming the record, field and reason.
  public var description: String {
    "\(kind.rawValue) \(id.uuidString.lowercased()): field '\(field)' \(reason)"
  }
}
