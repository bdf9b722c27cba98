public import Foundation
public import Model
import Persistence

/// One record as a revert puts it back: its fields, and whether it is live, deleted by a
/// user's delete, or hidden by its delete rules (a line of a deleted recipe).
public struct RecordRevert: Sendable, Hashable {
  /// How the record is left.
  public enum Liveness: Sendable, Hashable {
    /// Live, with ``RecordRevert/fields``.
    case live
    /// Deleted as by a user: the delete syncs.
    case deleted
    /// Deleted because a record it depends on is not shown, as a delete rule does: every
    /// device derives it, so nothing of it syncs.
    case hidden
  }

  /// The record's kind.
  public let kind: EntityKind
  /// The record's id.
  public let id: UUID
  /// Every schema field's value (a field left out holds null); for a record not left live,
  /// empty to leave its fields as they are.
  public let fields: [String: FieldValue]
  /// How the record is left.
  public let liveness: Liveness

  /// The record `id` of `kind`, left `liveness` with these fields.
  public init(kind: EntityKind, id: UUID, fields: [String: FieldValue], liveness: Liveness) {
    self.kind = kind
    self.id = id
    self.fields = fields
    self.liveness = liveness
  }
}

extension Library {
  /// Puts records back as `reverts` say, in one atomic transaction of new changes: a user's
  /// edits, deletes and re-creates that sync like any other (a record hidden by its delete
  /// rules is written as derived, as the rule's delete is). Deletes come first, so a key a
  /// deleted record frees can be taken back by another.
  /// - Returns: how many records were written.
  /// - Throws: the store's errors (a unique key two live records would hold, a value its
  ///   field refuses); then nothing is written.
  @discardableResult
  public func revert(_ reverts: [RecordRevert]) throws -> Int {
    let now = context.now()
    return try context.write { writer in
      var written = 0
      for revert in reverts where revert.liveness != .live {
        guard var row = try writer.record(revert.kind, id: revert.id) else { continue }
        if row.meta.isLive {
          if revert.liveness == .hidden {
            try writer.withOrigin(.derived) { try writer.tombstoneRecord(revert.kind, id: revert.id, at: now) }
          } else {
            try writer.tombstoneRecord(revert.kind, id: revert.id, at: now)
          }
          written += 1
          guard let tombstone = try writer.record(revert.kind, id: revert.id) else { continue }
          row = tombstone
        }
        // A tombstone's fields put back (a record that showed as one entity with another by
        // their shared key): its registers then hold them again.
        guard !revert.fields.isEmpty else { continue }
        var record = row
        for field in revert.kind.schema.fields { record[field.name] = revert.fields[field.name] ?? .null }
        guard record != row else { continue }
        try writer.updateRecord(record, replacing: row)
        written += 1
      }
      for revert in reverts where revert.liveness == .live {
        let schema = revert.kind.schema
        if let row = try writer.record(revert.kind, id: revert.id) {
          var record = row
          for field in schema.fields { record[field.name] = revert.fields[field.name] ?? .null }
          record.meta.deletedAt = nil
          guard record != row else { continue }
          record.meta.updatedAt = max(now, row.meta.updatedAt)
          try writer.updateRecord(record, replacing: row)
        } else {
          let meta = RecordMetadata(id: revert.id, createdAt: now, updatedAt: now, ownerID: context.ownerID)
          try writer.insertRecord(Record(kind: revert.kind, meta: meta, fields: revert.fields))
        }
        written += 1
      }
      return written
    }
  }
}
