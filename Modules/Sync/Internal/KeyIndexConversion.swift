import Foundation
import Model
import Persistence

/// Indexes each state of a unique kind under the key its identity fields give (`SharedKey`),
/// once, for stores whose index holds the key registers as written: a weekly list an old
/// build renamed without a key, or a key an old batch wrote that its name does not give, is
/// then one entity with the records its name says. Marked done in the metadata
/// (`sync.indexedBy`); a store this version wrote is walked once and changes nothing.
///
/// Returns the records whose indexed key moved, and those holding the key each left or
/// joined, whose views are computed again.
enum KeyIndexConversion {
  static let doneKey = "sync.indexedBy"
  static let done = "fields"
  private static let pageSize = 1_000

  static func convertIfNeeded(_ writer: any StoreWriter) throws -> Set<RecordKey> {
    guard try writer.metadata(forKey: doneKey) != done else { return [] }
    var moved = Set<RecordKey>()
    for kind in EntityKind.allCases where kind.schema.identity.isUnique {
      guard let keyField = kind.schema.semanticKeyField else { continue }
      var affectedKeys = Set<String>()
      let ids = try writer.syncStateIDs(kind)
      for start in stride(from: 0, to: ids.count, by: pageSize) {
        let page = Array(ids[start..<min(start + pageSize, ids.count)])
        for (id, text) in try writer.syncStates(kind, ids: page) {
          guard let state = StateCoding.decode(text) else { continue }
          let held = state[keyField]?.value.text.flatMap { $0.isEmpty ? nil : $0 }
          let indexed = SharedKey(state)?.key
          guard held != indexed else { continue }
          try writer.setSyncState(text, key: indexed, kind: kind, id: id)
          moved.insert(RecordKey(kind: kind, id: id))
          affectedKeys.formUnion([held, indexed].compactMap { $0 })
        }
      }
      for holders in try writer.syncStateHolders(kind, keys: Array(affectedKeys)).values {
        moved.formUnion(holders.map { RecordKey(kind: kind, id: $0) })
      }
    }
    try writer.setMetadata(done, forKey: doneKey)
    return moved
  }
}
