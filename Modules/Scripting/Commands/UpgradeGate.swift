import Foundation
import Migration
import Sync

/// The second stage of a household's upgrade (Docs/MIGRATIONS.md): a synced store goes to
/// schema v3 only when no other active device of its household still syncs an older
/// schema, as the cloud's device registry says — an older device keeps a newer device's
/// batches unread until it is upgraded too (`HeldBatch`), so upgrading one device first
/// cuts the others off from its changes. `migrate --force` goes ahead anyway.
enum UpgradeGate {
  /// A device seen within this time is active.
  static let activeWithin: TimeInterval = 30 * 86_400

  /// Why `migrate` must not take the store at `path` to v3 now, or nil when it may.
  /// - Parameters:
  ///   - cloud: the cloud the session's current device syncs through, if any.
  ///   - now: the session's clock.
  static func refusal(path: String, cloud: (any CloudStore)?, now: Date) -> String? {
    let replica: String?
    do {
      replica = try StoreMigrator(path: path).replicaID()
    } catch {
      return nil  // the migration itself reports a file it cannot read
    }
    guard let replica else { return nil }  // never synced: nothing else depends on it
    guard let cloud else {
      return
        "this store syncs (replica \(replica.prefix(8))), and no cloud is open to check which of its household's devices still run an older schema: cloud open … first, or migrate --force"
    }
    let devices: [CloudDevice]
    do {
      devices = try cloud.devices()
    } catch {
      return "cannot read the household's devices from \(cloud.location) (\(error)); try again when it is reachable, or migrate --force"
    }
    let behind = devices.filter {
      $0.replicaID != replica && $0.schemaVersion < StoreMigrator.currentVersion && now.timeIntervalSince($0.lastSeen) <= activeWithin
    }
    guard !behind.isEmpty else { return nil }
    let names = behind.sorted { $0.lastSeen > $1.lastSeen }.map {
      "'\($0.name)' (schema v\($0.schemaVersion), last seen \($0.lastSeen.formatted(.iso8601)))"
    }
    return "the household still has \(behind.count) active device(s) on an older schema: \(names.joined(separator: ", ")); "
      + "they would keep this store's changes unread until they are upgraded too; upgrade them first, or run migrate --force"
  }
}
