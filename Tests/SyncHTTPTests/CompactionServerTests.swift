import Foundation
import Model
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import SyncWire
import TestSupport
import Testing

/// Compaction on the server over real HTTP on loopback (Docs/SERVER.md, "Compaction"): a
/// registered device that has not pulled holds the floor; once its token is revoked the
/// log is compacted past it; given a new token it is refused `410 log-compacted` and starts
/// again from the snapshot, keeping the writes it made meanwhile, and every device ends
/// showing the same.
@Suite(.timeLimit(.minutes(10)))
struct CompactionServerTests {
  static func checkADeviceBehindTheFloorStartsAgainFromTheSnapshot(_ storage: any HouseholdStorage & SnapshotStore) async throws {
    let secrets = try await tokens(storage, devices: ["phone", "laptop", "tablet"])
    var configuration = ServerConfiguration()
    configuration.snapshotInterval = 4
    configuration.snapshotPageRecords = 3
    configuration.retention = 0
    let admin = Administration(storage: storage, configuration: configuration)
    let clock = TickingClock()
    try await withServer(storage, configuration: configuration) { url, _ in
      let (phone, laptop, tablet) = try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(10)), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
        let tablet = try Device("tablet", cloud: HTTPCloud(url: url, token: secrets[2], timeout: .seconds(10)), clock: clock, seed: 3)
        _ = try phone.library.categories.getOrCreate("Pantry")
        try phone.engine.sync()
        try tablet.engine.sync()
        for index in 0..<4 {
          _ = try phone.library.categories.getOrCreate("Aisle \(index)")
          _ = try phone.library.ingredients.getOrCreate("food \(index)", category: "Aisle \(index)")
          try phone.engine.sync()
          try laptop.engine.sync()
          _ = try laptop.library.categories.rename("Aisle \(index)", to: "Shelf \(index)")
          try laptop.engine.sync()
        }
        try phone.engine.sync()
        // The tablet writes offline.
        _ = try tablet.library.categories.getOrCreate("Tablet shelf")
        return (phone, laptop, tablet)
      }
      let household = try #require(try await storage.household(named: "Smith"))
      let latest = try await storage.latestSequence(of: household.id)
      // The tablet pulled only the first batch: it holds the floor there (a snapshot is made at 1).
      let held = try await admin.compactHousehold("Smith", dryRun: false)
      #expect(held.batches == 1 && held.floor == 1 && held.limit.contains("tablet"), "\(held)")
      let snapshot = try #require(try await storage.snapshots(of: household.id).last)
      #expect(snapshot.position == latest)
      // Retired (its token revoked), it no longer holds compaction back.
      #expect(try await admin.revokeTokens(household: "Smith", device: "tablet") == 1)
      let planned = try await admin.compactHousehold("Smith", dryRun: true)
      #expect(planned.dryRun && planned.floor > 1 && planned.batches == Int(planned.floor - 1), "\(planned)")
      #expect(try await storage.batches(of: household.id, after: 0, limit: 1).first?.sequence == 2, "a dry run dropped batches")
      let done = try await admin.compactHousehold("Smith", dryRun: false)
      #expect(done.floor == planned.floor && done.batches == planned.batches && done.bytes == planned.bytes)
      #expect(done.floor <= snapshot.position)
      #expect(try await storage.batches(of: household.id, after: 0, limit: 1).first.map { $0.sequence > done.floor } ?? true)
      #expect(try await admin.compactHousehold("Smith", dryRun: false).batches == 0, "a second compaction dropped more")
      // A restore cannot reach into the compacted history.
      await #expect(throws: ServerError.self) {
        try await admin.restoreHousehold("Smith", before: Date(timeIntervalSinceNow: -3_600), apply: false)
      }
      let renewed = try await admin.issueToken(household: "Smith", device: "tablet").token.secret
      try await onThread {
        let cloud = try HTTPCloud(url: url, token: renewed, timeout: .seconds(10))
        #expect(throws: CloudError.compacted(location: cloud.location, cursor: 0, firstKept: done.floor + 1)) {
          try cloud.pull(after: 0, limit: 10)
        }
        let engine = SyncEngine(store: tablet.store, cloud: cloud, deviceName: "tablet", replicaIDs: .seeded(3 &* 2 &+ 1))
        let report = try engine.sync()
        #expect(report.restartedFromSnapshot)
        #expect(report.exported > 0, "the tablet's own write was not pushed")
        try phone.engine.sync()
        try laptop.engine.sync()
        #expect(try tablet.view() == phone.view())
        #expect(try laptop.view() == phone.view())
        #expect(try phone.view().contains("category Tablet shelf"))
        #expect(try phone.view().contains("ingredient food 3 in Shelf 3"))
        #expect(try SyncVerifier(store: tablet.store).verify().differences.isEmpty)
      }
    }
  }

  @Test func aDeviceBehindTheFloorStartsAgainInMemory() async throws {
    try await Self.checkADeviceBehindTheFloorStartsAgainFromTheSnapshot(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aDeviceBehindTheFloorStartsAgainOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkADeviceBehindTheFloorStartsAgainFromTheSnapshot(storage) }
  }
}
