public import Foundation
import Model
public import Persistence
public import Repositories

/// The changes that bring every record of a device back to how the device showed it at a
/// time T, from its states and the history it keeps (Docs/SYNC.md, "History"): deleted
/// records back, renamed ones renamed back, values it received or wrote at or after T
/// reverted, records it learned of since deleted. Applied as one atomic set of new changes (``Repositories/Library/revert(_:)``),
/// which sync like any edit and win by their later stamps.
///
/// ```swift
/// let plan = try PointInTime.plan(before: yesterday, in: store, now: Date())
/// print(plan.summary)
/// try library.revert(plan.reverts)
/// ```
public enum PointInTime {
  /// What a restore to T changes.
  public struct Plan: Sendable, Hashable {
    /// T: what the device received or wrote at or after it is reverted.
    public let time: Date
    /// The records to write, deletes first.
    public let reverts: [RecordRevert]
    /// Records deleted since T that come back.
    public let restored: Int
    /// Records live now that were not at T (created since, or deleted before it and
    /// re-created since), deleted again.
    public let removed: Int
    /// Live records whose fields are put back, of which ``renamed`` had their name changed.
    public let changed: Int
    /// Live records whose name (display field) is put back.
    public let renamed: Int
    /// Records left as they are because the history this device keeps does not reach T
    /// ("kind id"), or because they were merged with another.
    public let notKept: [String]

    /// One line per count, for a person.
    public var summary: [String] {
      var lines = [
        "\(restored) deleted record\(restored == 1 ? "" : "s") restored", "\(removed) record\(removed == 1 ? "" : "s") created since deleted",
        "\(changed) record\(changed == 1 ? "" : "s") changed back (\(renamed) renamed)",
      ]
      if !notKept.isEmpty { lines.append("\(notKept.count) left as they are (history not kept back to then, or merged)") }
      return lines
    }
  }

  /// The plan that brings the store's records back to how they were at `time`.
  /// - Parameter now: the device's time; a `time` after it is refused.
  /// - Throws: ``PointInTimeError``: a time in the future or before the store's first
  ///   record, or local changes not yet stamped (sync first).
  public static func plan(before time: Date, in store: any Store, now: Date) throws -> Plan {
    guard time <= now else { throw PointInTimeError.future(time) }
    return try store.read { reader in
      guard try reader.changes(after: try reader.syncInteger(ReplicaKeys.stamped), limit: .max).allSatisfy({ !$0.isUserWrite })
      else { throw PointInTimeError.unsyncedChanges }
      var states: [RecordKey: RecordState] = [:]
      for kind in EntityKind.allCases {
        let keys = try reader.syncStateIDs(kind).map { RecordKey(kind: kind, id: $0) }
        states.merge(try reader.states(keys)) { first, _ in first }
      }
      guard let first = states.values.map(\.createdAt).min() else { throw PointInTimeError.nothingSynced }
      guard time >= first else { throw PointInTimeError.beforeFirstChange(time, first: first) }
      let mergedKeepers = Set(
        try reader.metadataKeys(withPrefix: ReplicaKeys.edgePrefix).compactMap {
          ReplicaKeys.parsePath($0, from: ReplicaKeys.edgePrefix.utf8.count)
        })
      let replica = try reader.metadata(forKey: ReplicaKeys.replicaID) ?? ""
      return try Planner(time: time, states: states, mergedKeepers: mergedKeepers, reader: reader, replica: replica).plan()
    }
  }
}

/// Why a restore to a point in time was refused.
public enum PointInTimeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The time lies after the device's clock.
  case future(Date)
  /// The time lies before the first record the device holds was created.
  case beforeFirstChange(Date, first: Date)
  /// The device holds no synced record.
  case nothingSynced
  /// Local changes wait to be stamped by a sync: the history does not hold them yet.
  case unsyncedChanges

  public var description: String {
    switch self {
    case .future(let time): "\(Self.text(time)) is in the future"
    case .beforeFirstChange(let time, let first):
      "\(Self.text(time)) is before the household's first change here (\(Self.text(first)))"
    case .nothingSynced: "this device holds no synced record yet: nothing to restore"
    case .unsyncedChanges: "this device has changes not yet synced; sync first, so the history holds them"
    }
  }

  private static func text(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
