public import Foundation

/// A record could not be read as an entity: a field is missing or holds the wrong type.
///
/// Seeing one means stored data does not match the schema, for example a record written
/// by a newer version of Forager.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
  public let kind: EntityKind
  public let id: UUID
  public let field: String
  public let reason: String

  public init(kind: EntityKind, id: UUID, field: String, reason: String) {
    self.kind = kind
    self.id = id
    self.field = field
    self.reason = reason
  }

  public var description: String {
    "\(kind.rawValue) \(id.uuidString.lowercased()): field '\(field)' \(reason)"
  }
}
