public import Foundation
public import Model
public import Persistence
public import Repositories

/// A record's history of changes and the device's trash, read from the replicated states
/// and the history the device keeps (``HistoryBounds``): who changed what, and when.
///
/// ```swift
/// for change in try RecordHistory.changes(of: .recipe, id: pasta.id, in: store) {
///   print(change.time ?? "migration", change.replica, change.field, change.old ?? .null, "→", change.new)
/// }
/// ```
public enum RecordHistory {
  /// One register replaced: a field's new value, a delete or re-create (``existsField``),
  /// a merge (``mergedField``).
  public struct Change: Sendable, Hashable {
    /// When the new value was written (its stamp's time; a creation's name stamp read back
    /// to the time of the creation), nil for a migration's fixed stamp.
    public let time: Date?
    /// The replica (device) that wrote the new value; empty for a migration.
    public let replica: String
    /// The schema field, ``existsField`` or ``mergedField``.
    public let field: String
    /// The value before, nil when the register held none (the field's default showed).
    public let old: FieldValue?
    /// The value after.
    public let new: FieldValue
  }

  /// The field name of a delete (new value false) or a re-create (true).
  public static let existsField = "exists"
  /// The field name of a merge into another record (its new value is the keeper's id).
  public static let mergedField = "merged into"

  /// The changes of one record the device's history keeps, oldest first (by the stamp of
  /// the new value, as the join orders them).
  public static func changes(of kind: EntityKind, id: UUID, in store: any Store) throws -> [Change] {
    let rows = try store.read { try $0.syncHistory(kind, id: id) }
    var changes: [(stamp: Stamp, change: Change)] = []
    for entry in rows.compactMap(HistoryEntry.init) {
      for (name, replacement) in entry.registers {
        let field: String
        if name == RecordState.existsField {
          field = existsField
        } else if name.hasPrefix(RecordState.edgePrefix) {
          field = mergedField
        } else {
          field = name
        }
        let stamp = replacement.new.stamp
        changes.append(
          (
            stamp,
            Change(time: stamp.wallTime, replica: stamp.replica, field: field, old: replacement.old?.value, new: replacement.new.value)
          ))
      }
    }
    return changes.sorted { ($0.stamp, $0.change.field) < ($1.stamp, $1.change.field) }.map(\.change)
  }

  /// A deleted record as the trash lists it.
  public struct Deleted: Sendable, Hashable {
    /// The record as it was when deleted (its row keeps every field).
    public let record: Record
    /// When it was deleted: the delete's stamp, or the row's deletion time before this
    /// device synced it.
    public let time: Date
    /// The replica (device) whose delete it is; nil for this device's delete not synced yet.
    public let replica: String?
  }

  /// The device's deleted records a user can restore (`Library.deletedRecords()`),
  /// newest deletion first: not a record merged into another (its tombstone is the merge's)
  /// nor one the view hides for a reason other than a delete.
  public static func trash(in store: any Store) throws -> [Deleted] {
    let records = try Library(store: store).deletedRecords()
    var deleted: [Deleted] = []
    try store.read { reader in
      for (kind, group) in Dictionary(grouping: records, by: \.kind) {
        let states = try reader.states(group.map { RecordKey(kind: kind, id: $0.id) })
        for record in group {
          let state = states[RecordKey(kind: kind, id: record.id)]
          if let state, state.hasEdges || !state.isDeleted { continue }
          let stamp = state?[RecordState.existsField]?.stamp
          deleted.append(
            Deleted(
              record: record, time: stamp?.wallTime ?? record.meta.deletedAt ?? record.meta.updatedAt,
              replica: stamp?.replica))
        }
      }
    }
    return deleted.sorted { ($0.time, $0.record.id.lowercaseText) > ($1.time, $1.record.id.lowercaseText) }
  }

  /// Brings a deleted record back through `library` (`Library.restore(_:id:deletedWithIt:)`),
  /// with the records that cascade from it and were not deleted on their own: those whose
  /// state says live (the view hid them with it), and, before this device synced them,
  /// those deleted at the same moment.
  @discardableResult
  public static func restore(_ kind: EntityKind, id: UUID, with library: Library) throws -> RestoreOutcome {
    try library.restore(kind, id: id) { record, parent, reader in
      guard let state = try reader.states([RecordKey(kind: record.kind, id: record.id)]).values.first else {
        return record.meta.deletedAt == parent.meta.deletedAt
      }
      return !state.isDeleted && !state.hasEdges
    }
  }

  /// The replica id of the device whose store this is, nil before it first synced.
  public static func replicaID(of store: any Store) throws -> String? {
    try store.read { try $0.metadata(forKey: ReplicaKeys.replicaID) }
  }
}

extension Stamp {
  /// The time a stamp was written at: its time, or for a creation stamp (``creationBand``
  /// below real time) the time of the creation; nil for a migration's fixed stamps.
  var wallTime: Date? {
    guard time > Stamp.migrationMerge.time else { return nil }
    let realEarliest = Int64(ValueRules.dateRange.lowerBound) * 1000
    let milliseconds = time < realEarliest ? time + Stamp.creationBand : time
    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
