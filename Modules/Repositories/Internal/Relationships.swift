import Foundation
import Model
import Persistence

/// Moves relationships from one record to another of the same kind.
enum Relationships {
  /// Re-points every live reference to `loser` at `keeper`, except the owner links of
  /// records owned by `loser` (those go with it when it is deleted).
  static func repoint(_ kind: EntityKind, from loser: UUID, to keeper: UUID, in writer: any StoreWriter, at date: Date) throws {
    for (owner, field) in EntitySchema.references(to: kind) where field.deleteRule != .cascade || owner.schema.ownerField != field.name {
      let referring = try writer.fetch(RecordQuery(owner, filters: [.references(field.name, loser)], sort: []))
      for var record in referring {
        if case .referenceList = field.type {
          var ids = record[field.name].references.map { $0 == loser ? keeper : $0 }
          var seen = Set<UUID>()
          ids = ids.filter { seen.insert($0).inserted }
          record[field.name] = .referenceList(ids)
        } else {
          record[field.name] = .reference(keeper)
        }
        record.meta.updatedAt = date
        try writer.updateRecord(record)
      }
    }
  }
}
