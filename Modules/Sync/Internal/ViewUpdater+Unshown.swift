import Foundation
import Model
import Persistence

/// A view whose row the schema refuses is not shown, on every device alike: the rows of
/// its component stop being live, what refers to it is computed again, and the record is
/// listed under `sync.unshown/` with the reason (``UnshownRecord``, `sync status`) until a
/// later change makes its view valid. Pulled changes keep the rules already (``ChangeRules``),
/// so this meets only states from a build with looser rules or data written behind sync's
/// back; the tables never keep a row older than the state.
extension ViewUpdater {
  /// Sets the component's live rows aside, notes why, and returns what to compute again.
  func notShown(_ kind: EntityKind, keeper: UUID, _ ids: [UUID], rows memberRows: [Record], _ error: any Error) throws
    -> [RecordKey]
  {
    errors += 1
    notes.append((.error, "\(kind.rawValue) \(keeper.lowercaseText) not shown: \(error)"))
    let live = Set(memberRows.filter(\.meta.isLive).map(\.id))
    for id in live.sorted(by: UUID.keeperOrder) {
      try writer.tombstoneRecord(kind, id: id, at: now)
      rows.written(kind, id)
    }
    if !live.isEmpty { components.shownChanged() }
    let entry = ReplicaKeys.unshown(RecordKey(kind: kind, id: keeper))
    let reason = UnshownRecord.reason(of: error)
    try writer.setMetadata(reason, forKey: entry)
    unshown.insert(entry)
    return try referrers(kind, members: ids, formerlyShown: live)
  }

  /// Removes the `sync.unshown/` entries of a component whose view was written.
  func shownAgain(_ kind: EntityKind, _ ids: [UUID]) throws {
    for id in ids {
      let entry = ReplicaKeys.unshown(RecordKey(kind: kind, id: id))
      if unshown.remove(entry) != nil { try writer.setMetadata(nil, forKey: entry) }
    }
  }
}
