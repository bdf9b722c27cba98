public import Foundation
public import Model

/// Why a store operation failed. Nothing was written when one is thrown.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A live record of a unique kind already holds this semantic key.
  case uniqueViolation(kind: EntityKind, semanticKey: String, existing: UUID)
  /// A record with this id already exists.
  case duplicateID(kind: EntityKind, id: UUID)
  /// No record of this kind has this id.
  case notFound(kind: EntityKind, id: UUID)
  /// A record does not match its kind's schema.
  case invalidRecord(kind: EntityKind, id: UUID, field: String, reason: String)
  /// A query names a field its kind does not have.
  case unknownField(kind: EntityKind, field: String)
  /// A query compares a field with a value it can never hold.
  case invalidQuery(kind: EntityKind, field: String, reason: String)
  /// The store could not be opened or read: a bad path, a damaged file, a newer schema.
  case unavailable(location: String, reason: String)
  /// The backend failed in a way not covered above.
  case backend(String)

  /// A message naming the store, record or value at fault.
  public var description: String {
    switch self {
    case .uniqueViolation(let kind, let key, let existing):
      "\(kind.rawValue) '\(key)' already exists (id \(existing.uuidString.lowercased()))"
    case .duplicateID(let kind, let id):
      "\(kind.rawValue) with id \(id.uuidString.lowercased()) already exists"
    case .notFound(let kind, let id):
      "no \(kind.rawValue) with id \(id.uuidString.lowercased())"
    case .invalidRecord(let kind, let id, let field, let reason):
      "invalid \(kind.rawValue) \(id.uuidString.lowercased()): field '\(field)' \(reason)"
    case .unknownField(let kind, let field):
      "\(kind.rawValue) has no field '\(field)'"
    case .invalidQuery(let kind, let field, let reason):
      "invalid query on \(kind.rawValue).\(field): \(reason)"
    case .unavailable(let location, let reason):
      "cannot open store \(location): \(reason)"
    case .backend(let message):
      "store error: \(message)"
    }
  }
}
