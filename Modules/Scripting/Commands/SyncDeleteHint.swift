import CommandLanguage
import Foundation
import Sync

/// `sync status`'s hint for a device that deletes what it should not: which device made
/// the most deletes in the last day, read from each of the session's devices' history
/// (`RecordHistory.deletesByDevice(since:in:)`).
enum SyncDeleteHint {
  /// How far back the hint looks.
  static let window: TimeInterval = 86_400

  /// The deletes of the last day `device`'s history holds, by device name, most first.
  static func counts(_ device: Device, _ session: Session, names: [String: String]) throws -> [(device: String, deletes: Int)] {
    let since = session.now().addingTimeInterval(-window)
    return try RecordHistory.deletesByDevice(since: since, in: device.store).map {
      (HistoryCommands.deviceName($0.replica, names), $0.deletes)
    }
  }

  /// "phone's history: most deletes in the last day by laptop (12 of 14; then tablet 2)",
  /// nil when it holds no delete of the last day.
  static func line(_ device: Device, _ counts: [(device: String, deletes: Int)]) -> String? {
    guard let top = counts.first else { return nil }
    let total = counts.reduce(0) { $0 + $1.deletes }
    var text = "\(device.name)'s history: most deletes in the last day by \(top.device) (\(top.deletes) of \(total)"
    let others = counts.dropFirst().prefix(3).map { "\($0.device) \($0.deletes)" }
    if !others.isEmpty { text += "; then " + others.joined(separator: ", ") }
    return text + "): if that device should not delete, `trash` and `restore --before` bring records back"
  }

  /// The counts as `sync status --json` gives them, one object per device and deleting device.
  static func json(_ byDevice: [(device: String, counts: [(device: String, deletes: Int)])]) -> JSONValue {
    .array(
      byDevice.flatMap { device, counts in
        counts.map { count -> JSONValue in
          ["device": .string(device), "deletedBy": .string(count.device), "deletes": .int(count.deletes)]
        }
      })
  }
}
