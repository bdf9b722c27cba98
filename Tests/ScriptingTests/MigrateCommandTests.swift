import Foundation
import GRDB
import LegacyStoreSupport
import Migration
import Model
import Scripting
import Sync
import SyncSQLite
import TestSupport
import Testing

/// `migrate`: dry run, full migration with a backup, stopping at v2, and what opening an
/// old store says.
@Suite struct MigrateCommandTests {
  /// A generated version-1 file of the earlier app, with duplicates.
  private func oldStore() throws -> String {
    let path = try TemporaryDirectory.make().appendingPathComponent("old kitchen.sqlite").path
    try LegacyStoreGenerator(seed: 4, recordCount: 300).write(to: path)
    return path
  }

  @Test func dryRunReportsWhatWouldChangeAndLeavesTheFileAtVersionOne() throws {
    let path = try oldStore()
    let harness = try Harness()
    let text = try harness.text("migrate '\(path)' --dry-run --time-zone UTC")
    #expect(text.contains("would migrate schema v1 → v6"))
    #expect(text.contains("dedup:"))
    #expect(try StoreMigrator(path: path).version() == .forager(1))
    #expect(!FileManager.default.fileExists(atPath: path + ".v1.backup"))
  }

  @Test func migrateBacksUpUpgradesAndTheStoreThenOpens() throws {
    let path = try oldStore()
    let harness = try Harness()
    let opening = try #require(harness.error("open '\(path)'"))
    #expect(opening.description.contains("schema v1"))
    #expect(opening.description.contains("migrate \(path) --dry-run"))

    let text = try harness.text("migrate '\(path)' --time-zone America/New_York")
    #expect(text.contains("migrated schema v1 → v6"))
    #expect(text.contains("backup: \(path).v1.backup"))
    #expect(FileManager.default.fileExists(atPath: path + ".v1.backup"))
    let json = try harness.json("migrate '\(path)' --json")
    #expect(json["migration"]?["from"] == .int(6))
    #expect(json["migration"]?["to"] == .int(6))
    try harness.run("open '\(path)'")
    #expect(try harness.count(.category) > 0)
    #expect(try harness.text("duplicates category").contains("produce") == false)
    // The current device's file is the default PATH; it is at v4, so nothing to do.
    #expect(try harness.text("migrate").contains("already at schema v6"))
  }

  @Test func theMergesOfAMigrationArePushedAsMergeEdgesAtTheFirstSync() throws {
    let path = try oldStore()
    let harness = try Harness()
    let report = try harness.json("migrate '\(path)' --time-zone UTC --no-backup --json")
    guard case .array(let merges)? = report["migration"]?["merged"] else {
      Issue.record("no merges in \(report)")
      return
    }
    let losers = Set(
      merges.flatMap { merge -> [String] in
        guard case .array(let ids)? = merge["losers"] else { return [] }
        return ids.compactMap { if case .string(let id) = $0 { id } else { nil } }
      })
    #expect(losers.count > 0)
    let cloud = try TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path
    try harness.run("open '\(path)'\ncloud open '\(cloud)'\nsync")
    let pushed = try SQLiteCloud(path: cloud).pull(after: 0, limit: 1_000).flatMap(\.batch.changes)
    let merged = pushed.filter { $0.fields.keys.contains { $0.hasPrefix(RecordChange.mergeFieldPrefix) } }
    #expect(Set(merged.map { $0.id.lowercaseText }) == losers)
    // A merge is not a delete: the merged records' existence is not written false.
    #expect(merged.allSatisfy { $0.fields[RecordChange.existsField]?.value != .bool(false) })
  }

  @Test func migrateToTwoStopsBeforeTheConstraints() throws {
    let path = try oldStore()
    let harness = try Harness()
    #expect(try harness.text("migrate '\(path)' --to 2 --no-backup").contains("v1 → v2"))
    #expect(try StoreMigrator(path: path).version() == .forager(2))
    #expect(harness.error("open '\(path)'")?.description.contains("schema v2") == true)
  }

  @Test func badArgumentsFailWithoutTouchingAnything() throws {
    let harness = try Harness()
    #expect(harness.error("migrate")?.description.contains("PATH") == true)
    let path = try oldStore()
    #expect(harness.error("migrate '\(path)' --time-zone Mars/Olympus")?.description.contains("not a time zone") == true)
    #expect(harness.error("migrate '\(path).missing'")?.description.contains("no store at") == true)
    #expect(try StoreMigrator(path: path).version() == .forager(1))
  }
}

/// `migrate` to v4 on a store that syncs asks the household's device registry first.
@Suite struct UpgradeGateTests {
  /// A v2 file (the earlier app's data after stage A) that has synced as `replica`.
  private func syncedVersionTwoStore(replica: String) throws -> String {
    let path = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path
    try LegacyStoreGenerator(seed: 5, recordCount: 60).write(to: path)
    _ = try StoreMigrator(path: path).migrate(
      MigrationOptions(target: 2, timeZone: TimeZone(identifier: "UTC") ?? .current, makeBackup: false))
    try DatabaseQueue(path: path).write { db in
      try db.execute(sql: "INSERT INTO forager_metadata (key, value) VALUES ('sync.replica', ?)", arguments: [replica])
    }
    return path
  }

  @Test func anActiveDeviceOnAnOlderSchemaStopsTheUpgradeUnlessForced() throws {
    let path = try syncedVersionTwoStore(replica: "replica-phone")
    let harness = try Harness()
    try harness.run("cloud open --memory")
    let cloud = try #require(harness.session.cloud)
    let day: TimeInterval = 86_400
    try cloud.register(CloudDevice(replicaID: "replica-phone", name: "phone", schemaVersion: 2, lastSeen: Harness.fixedNow))
    try cloud.register(CloudDevice(replicaID: "replica-tablet", name: "tablet", schemaVersion: 2, lastSeen: Harness.fixedNow - 3 * day))
    try cloud.register(CloudDevice(replicaID: "replica-old-tv", name: "old tv", schemaVersion: 2, lastSeen: Harness.fixedNow - 90 * day))
    try cloud.register(CloudDevice(replicaID: "replica-laptop", name: "laptop", schemaVersion: 6, lastSeen: Harness.fixedNow))

    let error = try #require(harness.error("migrate '\(path)' --no-backup"))
    #expect(error.description.contains("'tablet' (schema v2, last seen 2024-12-10T00:00:00Z)"), "\(error)")
    #expect(!error.description.contains("old tv"))  // not seen for 90 days: not active
    #expect(!error.description.contains("'phone'"))  // the store itself
    #expect(error.description.contains("migrate --force"))
    #expect(try StoreMigrator(path: path).version() == .forager(2))
    // Stopping at v2 is not the upgrade the registry guards.
    try harness.run("migrate '\(path)' --to 2 --no-backup")
    try harness.run("migrate '\(path)' --no-backup --force")
    #expect(try StoreMigrator(path: path).version() == .forager(6))
  }

  @Test func aSyncedStoreWithNoCloudToAskIsRefusedAndANeverSyncedOneIsNot() throws {
    let synced = try syncedVersionTwoStore(replica: "replica-phone")
    let harness = try Harness()
    let error = try #require(harness.error("migrate '\(synced)' --no-backup"))
    #expect(error.description.contains("no cloud is open"))
    #expect(try StoreMigrator(path: synced).version() == .forager(2))

    let path = try TemporaryDirectory.make().appendingPathComponent("never.sqlite").path
    try LegacyStoreGenerator(seed: 6, recordCount: 60).write(to: path)
    try harness.run("migrate '\(path)' --no-backup --time-zone UTC")
    #expect(try StoreMigrator(path: path).version() == .forager(6))
  }

  @Test func onceEveryActiveDeviceIsUpgradedTheStoreGoesToTheCurrentVersion() throws {
    let path = try syncedVersionTwoStore(replica: "replica-phone")
    let harness = try Harness()
    try harness.run("cloud open --memory")
    let cloud = try #require(harness.session.cloud)
    try cloud.register(CloudDevice(replicaID: "replica-tablet", name: "tablet", schemaVersion: 6, lastSeen: Harness.fixedNow))
    try harness.run("migrate '\(path)' --no-backup")
    #expect(try StoreMigrator(path: path).version() == .forager(6))
  }
}
