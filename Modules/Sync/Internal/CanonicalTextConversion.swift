import Foundation
import Model
import Persistence

/// Puts the texts a store holds from before texts were kept in NFC into NFC, once: every
/// row (so a local change stamped from it writes NFC registers) and every state (so its
/// registers hold the bytes a device that pulls the same changes now joins). Marked done in
/// the metadata (`sync.texts`); a store written by this version holds NFC already and
/// is only read.
///
/// The state's texts are put into NFC as a pull does (``RecordChange/canonical``), a pure
/// function of each value keeping its stamp, so this device ends with the registers every
/// other device holds for the same writes, and the view of what changed is computed again.
enum CanonicalTextConversion {
  static let doneKey = "sync.texts"
  static let done = "nfc"
  private static let pageSize = 1_000

  /// Converts when the store is not marked done; returns the records whose state changed.
  static func convertIfNeeded(_ writer: any StoreWriter, _ states: StateStore) throws -> Set<RecordKey> {
    guard try writer.metadata(forKey: doneKey) != done else { return [] }
    var changed = Set<RecordKey>()
    for kind in EntityKind.allCases {
      for record in try writer.fetch(RecordQuery(kind, includeDeleted: true, sort: [])) {
        let canonical = record.canonical
        if canonical != record { try writer.updateRecord(canonical, replacing: record) }
      }
      let ids = try writer.syncStateIDs(kind)
      for start in stride(from: 0, to: ids.count, by: pageSize) {
        let page = Array(ids[start..<min(start + pageSize, ids.count)])
        for (id, text) in try writer.syncStates(kind, ids: page) {
          guard let state = StateCoding.decode(text), let canonical = canonicalized(state) else { continue }
          try states.set(canonical)
          changed.insert(RecordKey(kind: kind, id: id))
        }
      }
    }
    try writer.setMetadata(done, forKey: doneKey)
    return changed
  }

  /// The state with every register and its owner in NFC, or nil when it holds them so.
  static func canonicalized(_ state: RecordState) -> RecordState? {
    let change = state.wholeChange
    let canonical = change.canonical
    guard canonical != change || !canonical.ownerID.utf8.elementsEqual(change.ownerID.utf8) else { return nil }
    return RecordState(canonical)
  }
}
