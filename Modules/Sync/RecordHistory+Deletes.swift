public import Foundation
import Model
public import Persistence

extension RecordHistory {
  /// How many records one device deleted.
  public struct DeleteCount: Sendable, Hashable {
    /// The replica (device) whose deletes they are.
    public let replica: String
    /// How many records it deleted.
    public let deletes: Int
  }

  /// The devices whose deletes this device's history holds from `since` on, most deletes
  /// first (ties by replica): a hint for a device that deletes what it should not, which
  /// `sync status` shows for the last day.
  ///
  /// A delete counts when its stamp's time (on the time authority's clock, moved back to
  /// the store's by the offset the last sync learned) is at or after `since`: the device's
  /// own deletes once a sync stamped them, and every delete it pulled. A record's delete
  /// counts once, however often the history holds it; a record a delete rule hid with
  /// another is not a delete of its own, nor is a merge. Entries dropped by the history's
  /// bounds (``HistoryBounds``) are not counted.
  ///
  /// ```swift
  /// let day = try RecordHistory.deletesByDevice(since: now.addingTimeInterval(-86_400), in: store)
  /// if let top = day.first { print("\(top.replica) deleted \(top.deletes) records") }
  /// ```
  public static func deletesByDevice(since: Date, in store: any Store) throws -> [DeleteCount] {
    try store.read { reader in
      let offset = try reader.syncInteger(ReplicaKeys.clockOffset)
      let earliest = since.millisecondsSince1970 &+ offset
      var deletes: [String: Set<String>] = [:]
      var after: Int64 = 0
      while true {
        let page = try reader.syncHistory(after: after, limit: 5_000)
        guard let last = page.last else { break }
        for row in page {
          guard let entry = HistoryEntry(row), let exists = entry.registers[RecordState.existsField],
            exists.new.value == .bool(false), exists.old?.value != .bool(false),
            let time = exists.new.stamp.wallTime, time.millisecondsSince1970 >= earliest
          else { continue }
          let stamp = exists.new.stamp
          deletes[stamp.replica, default: []].insert("\(row.kind.rawValue)/\(row.id.lowercaseText)/\(stamp.time)/\(stamp.counter)")
        }
        after = last.sequence
      }
      return deletes.map { DeleteCount(replica: $0.key, deletes: $0.value.count) }
        .sorted { ($0.deletes, $1.replica) > ($1.deletes, $0.replica) }
    }
  }
}
