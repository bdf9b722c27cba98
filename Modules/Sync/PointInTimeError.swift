public import Foundation

/// Why a restore to a point in time was refused; nothing was written.
public enum PointInTimeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The time lies after the device's clock.
  case future(Date)
  /// The time lies before the first record the device holds was created.
  case beforeFirstChange(Date, first: Date)
  /// The device holds no synced record.
  case nothingSynced
  /// Local changes wait to be stamped by a sync: the history does not hold them yet.
  case unsyncedChanges
  /// The states changed (a sync ran) between computing the plan and applying it.
  case changedSincePlanned

  /// The refusal, for a person.
  public var description: String {
    switch self {
    case .future(let time): "\(Self.text(time)) is in the future"
    case .beforeFirstChange(let time, let first):
      "\(Self.text(time)) is before the household's first change here (\(Self.text(first)))"
    case .nothingSynced: "this device holds no synced record yet: nothing to restore"
    case .unsyncedChanges: "this device has changes not yet synced; sync first, so the history holds them"
    case .changedSincePlanned: "the records changed since the restore was planned (a sync ran); plan it again"
    }
  }

  private static func text(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
