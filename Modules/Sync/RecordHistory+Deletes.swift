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
  /// another is not a delete of its own, nor is a merge. Only the newest `scanning` entries
  /// of the history are read (1,000 by default: a device that deleted much fills them), so
  /// `sync status` costs about the same on a kitchen of any size; entries dropped by the
  /// history's bounds (``HistoryBounds``) are not counted either.
  ///
  /// ```swift
  /// let day = try RecordHistory.deletesByDevice(since: now.addingTimeInterval(-86_400), in: store)
  /// if let top = day.first { print("\(top.replica) deleted \(top.deletes) records") }
  /// ```
  public static func deletesByDevice(since: Date, in store: any Store, scanning: Int = 1_000) throws -> [DeleteCount] {
    try store.read { reader in
      let offset = try reader.syncInteger(ReplicaKeys.clockOffset)
      let earliest = since.millisecondsSince1970 &+ offset
      var deletes: [String: Set<String>] = [:]
      var after = max(0, try newestHistorySequence(reader) - Int64(max(0, scanning)))
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

  /// The sequence of the history's newest entry (0 when empty), found by probing pages of
  /// one entry: sequences only grow, with gaps where entries were dropped.
  private static func newestHistorySequence(_ reader: any StoreReader) throws -> Int64 {
    func first(after sequence: Int64) throws -> Int64? { try reader.syncHistory(after: sequence, limit: 1).first?.sequence }
    guard var low = try first(after: 0) else { return 0 }
    // `low` is an entry's sequence; no entry lies after `high`.
    var high = max(low, 1_024)
    while let next = try first(after: high) {
      low = next
      high = next.multipliedReportingOverflow(by: 2).overflow ? .max : next * 2
    }
    while high > low {
      let middle = low + (high - low) / 2
      if let next = try first(after: middle) { low = next } else { high = middle }
    }
    return low
  }
}
