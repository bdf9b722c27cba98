import Foundation
import Model
import Persistence

extension ReferenceView {
  /// The reference view of every state a store holds.
  static func read(_ reader: any StoreReader) throws -> ReferenceView {
    var states: [RecordState] = []
    for kind in EntityKind.allCases {
      let ids = try reader.syncStateIDs(kind)
      for start in stride(from: 0, to: ids.count, by: RowCache.pageSize) {
        let page = Array(ids[start..<min(start + RowCache.pageSize, ids.count)])
        states += try reader.syncStates(kind, ids: page).values.compactMap(StateCoding.decode)
      }
    }
    return ReferenceView(states: states)
  }

  /// Every row of every kind a store holds, live or not.
  static func tableRows(_ reader: any StoreReader) throws -> [RecordKey: Record] {
    var rows: [RecordKey: Record] = [:]
    for kind in EntityKind.allCases {
      for record in try reader.fetch(RecordQuery(kind, includeDeleted: true, sort: [])) {
        rows[RecordKey(kind: kind, id: record.id)] = record
      }
    }
    return rows
  }

  /// How the tables differ from this view, per record and field, in record order; records
  /// in `skipping` are left out.
  ///
  /// The keeper's row must be the view's row: live or not as it is, every field and the
  /// metadata, tombstones' references included. Any
  /// other record, and a row no state or edge names, must show no live row (a tombstone
  /// of a member is dated when the view set it aside, which the states do not say).
  func differences(from rows: [RecordKey: Record], skipping: Set<RecordKey> = []) -> [ViewDifference] {
    let keys = Set(expected.keys).union(rows.keys).subtracting(skipping).sorted()
    return keys.flatMap { key in Self.differences(key, table: rows[key], expected: expected[key]) }
  }

  private static func differences(_ key: RecordKey, table: Record?, expected: Expected?) -> [ViewDifference] {
    func difference(_ field: String, _ table: String, _ expected: String) -> ViewDifference {
      ViewDifference(kind: key.kind, id: key.id, field: field, table: table, expected: expected)
    }
    switch (expected, table) {
    case (.row(let view)?, nil):
      return [difference(ViewDifference.rowField, "no row", view.meta.isLive ? "live" : "tombstone")]
    case (.row(let view)?, let table?):
      guard view.meta.isLive == table.meta.isLive else {
        return [difference(ViewDifference.rowField, table.meta.isLive ? "live" : "tombstone", view.meta.isLive ? "live" : "tombstone")]
      }
      var found: [ViewDifference] = []
      for name in table.changedFields(comparedTo: view) {
        found.append(difference(name, ViewDifference.text(table[name]), ViewDifference.text(view[name])))
      }
      let metadata: [(String, String, String)] = [
        ("@createdAt", ViewDifference.text(table.meta.createdAt), ViewDifference.text(view.meta.createdAt)),
        ("@updatedAt", ViewDifference.text(table.meta.updatedAt), ViewDifference.text(view.meta.updatedAt)),
        ("@deletedAt", table.meta.deletedAt.map(ViewDifference.text) ?? "none", view.meta.deletedAt.map(ViewDifference.text) ?? "none"),
        ("@ownerID", table.meta.ownerID, view.meta.ownerID),
        ("@sharingScope", table.meta.sharingScope.rawValue, view.meta.sharingScope.rawValue),
      ]
      // Byte for byte, as the fields (``Model/FieldValue``'s `==`): an owner in another
      // Unicode form is other bytes in the table.
      for (name, shown, wanted) in metadata where !shown.utf8.elementsEqual(wanted.utf8) {
        found.append(difference(name, ViewDifference.marked(shown), ViewDifference.marked(wanted)))
      }
      return found
    case (.notShown(let keeper)?, let table?) where table.meta.isLive:
      let reason =
        keeper == key.id ? "no live row (its states cannot show it yet)" : "no live row (one entity with \(keeper.lowercaseText))"
      return [difference(ViewDifference.rowField, "live", reason)]
    case (nil, let table?) where table.meta.isLive:
      return [difference(ViewDifference.rowField, "live", "no live row (no state)")]
    default:
      return []
    }
  }

  /// The rows to write so that the tables show this view, for the records that differ:
  /// first the rows that stop being live (so no key is shown twice on the way), then the
  /// rest.
  func repairs(_ differing: [RecordKey]) -> [(key: RecordKey, write: Expected?)] {
    let writes = differing.map { key in (key: key, write: expected[key]) }
    return writes.sorted { lhs, rhs in
      let (left, right) = (Self.isLiveRow(lhs.write), Self.isLiveRow(rhs.write))
      return left != right ? !left : lhs.key < rhs.key
    }
  }

  private static func isLiveRow(_ expected: Expected?) -> Bool {
    if case .row(let record)? = expected { return record.meta.isLive }
    return false
  }
}
