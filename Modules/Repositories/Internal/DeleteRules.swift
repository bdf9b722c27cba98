import Foundation
import Model
import Persistence

/// Applies the schema's delete rules (``DeleteRule``) when a record is deleted, so no live
/// relationship ever points at a tombstone.
enum DeleteRules {
  /// Tombstones `id` and everything that cascades from it; clears nullified references.
  ///
  /// Only the delete itself is the user's write. What follows from it (records that
  /// cascade, references cleared) is logged as `derived`: every device's view derives the
  /// same from the delete (Docs/SYNC.md), so it is not replicated as a write of its own,
  /// and another device's later write to one of those records (re-planning the meal of a
  /// deleted recipe with another recipe) is not overridden by it.
  /// - Throws: ``RepositoryError/inUse(_:_:usedBy:)`` when a `.deny` relationship still
  ///   points at it (checked before anything is written).
  static func delete(_ kind: EntityKind, id: UUID, name: String, in writer: any StoreWriter, at date: Date) throws {
    let blockers = try denyingReferences(to: kind, id: id, in: writer)
    guard blockers.isEmpty else { throw RepositoryError.inUse(kind, name, usedBy: blockers) }
    try writer.tombstoneRecord(kind, id: id, at: date)
    try writer.withOrigin(.derived) { try applyRules(toReferencesOf: kind, id: id, in: writer, at: date) }
  }

  private static func applyRules(toReferencesOf kind: EntityKind, id: UUID, in writer: any StoreWriter, at date: Date) throws {
    for (owner, field) in EntitySchema.references(to: kind) {
      let referring = try writer.fetch(RecordQuery(owner, filters: [.references(field.name, id)], sort: []))
      for var record in referring {
        switch field.deleteRule {
        case .cascade:
          try writer.tombstoneRecord(owner, id: record.id, at: date)
          try applyRules(toReferencesOf: owner, id: record.id, in: writer, at: date)
        case .nullify:
          if case .referenceList = field.type {
            record[field.name] = .referenceList(record[field.name].references.filter { $0 != id })
          } else {
            record[field.name] = .null
          }
          record.meta.updatedAt = date
          try writer.updateRecord(record)
        case .deny:
          break
        }
      }
    }
  }

  /// Live records whose `.deny` relationships point at the record (names for the message).
  static func denyingReferences(to kind: EntityKind, id: UUID, in reader: any StoreReader) throws -> [String] {
    var names: [String] = []
    for (owner, field) in EntitySchema.references(to: kind) where field.deleteRule == .deny {
      let referring = try reader.fetch(RecordQuery(owner, filters: [.references(field.name, id)], sort: []))
      for record in referring {
        names.append(try describeOwner(of: record, in: reader))
      }
    }
    return names
  }

  /// "recipe 'Tomato Pasta'" for an owned record, or the record's own kind and name.
  private static func describeOwner(of record: Record, in reader: any StoreReader) throws -> String {
    if let ownerField = record.kind.schema.ownerField, let ownerID = record[ownerField].reference,
      case .reference(let ownerKind) = record.kind.schema.field(named: ownerField)?.type,
      let owner = try reader.record(ownerKind, id: ownerID)
    {
      return "\(ownerKind.label) '\(owner.displayText)'"
    }
    return "\(record.kind.label) '\(record.displayText)'"
  }
}
