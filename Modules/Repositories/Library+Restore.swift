public import Foundation
public import Model
public import Persistence

/// What ``Library/restore(_:id:deletedWithIt:)`` brought back.
public struct RestoreOutcome: Sendable, Hashable {
  /// The restored record, live again.
  public let record: Record
  /// The records deleted with it by its delete rules (a recipe's lines, the meals planned
  /// with it), live again.
  public let related: [Record]
  /// The records deleted with it that stay deleted, each with why ("the slot holds
  /// another meal").
  public let keptDeleted: [String]
}

extension Library {
  /// The kinds a user deletes by name: what ``deletedRecords()`` lists.
  public static let restorableKinds: [EntityKind] = [
    .category, .tag, .ingredientTemplate, .book, .recipe, .plannedMeal, .mealPlan, .weeklyList, .groceryStore,
  ]

  /// The deleted records of ``restorableKinds`` that were not deleted by a delete rule
  /// (a meal deleted with its recipe comes back with the recipe, so only the recipe is
  /// listed), newest deletion first.
  public func deletedRecords() throws -> [Record] {
    try context.read { reader in
      var found: [Record] = []
      for kind in Self.restorableKinds {
        for record in try reader.fetch(RecordQuery(kind, includeDeleted: true, sort: [])) where !record.meta.isLive {
          if try !Self.deletedByRule(record, in: reader) { found.append(record) }
        }
      }
      return found.sorted {
        ($0.meta.deletedAt ?? .distantPast, $0.id.lowercaseText) > ($1.meta.deletedAt ?? .distantPast, $1.id.lowercaseText)
      }
    }
  }

  /// Brings a deleted record back as a user's edit, with the records its delete rules
  /// deleted with it: those that cascade from it and that `deletedWithIt` says were
  /// deleted by the rule, not on their own (by default: deleted at the same moment).
  ///
  /// The record itself is written with this library's origin, so sync stamps it as a
  /// re-create that wins over the delete on every device; the related records are written
  /// as derived, as their delete was: every device's view brings them back from the
  /// record's re-create. A related record whose unique key a live record holds now stays
  /// deleted and is named in ``RestoreOutcome/keptDeleted``.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown id,
  ///   ``RepositoryError/notDeleted(_:_:)`` for a live record, and
  ///   ``RepositoryError/restoreCollision(_:name:existingName:existingID:)`` when a live record holds its
  ///   unique key now (that record is kept; nothing is written).
  @discardableResult
  public func restore(
    _ kind: EntityKind, id: UUID, deletedWithIt: ((Record, _ parent: Record, any StoreReader) throws -> Bool)? = nil
  ) throws -> RestoreOutcome {
    let rule = deletedWithIt ?? { record, parent, _ in record.meta.deletedAt == parent.meta.deletedAt }
    let now = context.now()
    return try context.write { writer in
      guard let record = try writer.record(kind, id: id) else { throw RepositoryError.notFound(kind, id.lowercaseText) }
      guard !record.meta.isLive else { throw RepositoryError.notDeleted(kind, record.displayText) }
      if let holder = try Self.liveHolder(of: record, in: writer) {
        throw RepositoryError.restoreCollision(kind, name: record.displayText, existingName: holder.displayText, existingID: holder.id)
      }
      let restored = try Self.bringBack(record, at: now, in: writer)
      var related: [Record] = []
      var keptDeleted: [String] = []
      try writer.withOrigin(.derived) {
        try Self.restoreCascade(of: record, rule: rule, at: now, in: writer, related: &related, keptDeleted: &keptDeleted)
      }
      return RestoreOutcome(record: restored, related: related, keptDeleted: keptDeleted)
    }
  }

  private static func bringBack(_ record: Record, at now: Date, in writer: any StoreWriter) throws -> Record {
    var live = record
    live.meta.deletedAt = nil
    live.meta.updatedAt = max(now, record.meta.updatedAt)
    try writer.updateRecord(live, replacing: record)
    return live
  }

  /// The live record of the same kind that holds `record`'s unique key, if any.
  private static func liveHolder(of record: Record, in reader: any StoreReader) throws -> Record? {
    guard record.kind.schema.identity.isUnique, let key = record.semanticKey else { return nil }
    return try reader.records(record.kind, semanticKey: key).first { $0.id != record.id }
  }

  /// Whether a deleted record was deleted by a cascade: one of its cascading references
  /// points at a deleted record.
  private static func deletedByRule(_ record: Record, in reader: any StoreReader) throws -> Bool {
    for field in record.kind.schema.fields where field.deleteRule == .cascade {
      guard let target = record[field.name].reference, case .reference(let targetKind) = field.type else { continue }
      if let parent = try reader.record(targetKind, id: target), !parent.meta.isLive { return true }
    }
    return false
  }

  private static func restoreCascade(
    of parent: Record, rule: (Record, Record, any StoreReader) throws -> Bool, at now: Date, in writer: any StoreWriter,
    related: inout [Record], keptDeleted: inout [String]
  ) throws {
    for (owner, field) in EntitySchema.references(to: parent.kind) where field.deleteRule == .cascade {
      let referring = try writer.fetch(RecordQuery(owner, filters: [.references(field.name, parent.id)], includeDeleted: true, sort: []))
      for record in referring where !record.meta.isLive {
        guard try rule(record, parent, writer) else { continue }
        if let holder = try liveHolder(of: record, in: writer) {
          keptDeleted.append("\(owner.label) '\(record.displayText)': \(owner.label) '\(holder.displayText)' holds its place now")
          continue
        }
        related.append(try bringBack(record, at: now, in: writer))
        try restoreCascade(of: record, rule: rule, at: now, in: writer, related: &related, keptDeleted: &keptDeleted)
      }
    }
  }
}
