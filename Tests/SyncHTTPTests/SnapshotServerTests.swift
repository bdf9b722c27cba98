import Foundation
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import TestSupport
import Testing

/// A new device starts from the server's snapshot over real HTTP on loopback, then pulls
/// the batches after it, and shows what the devices that replayed the log show.
@Suite(.timeLimit(.minutes(10)))
struct SnapshotServerTests {
  static func checkNewDeviceStartsFromTheSnapshot(_ storage: any HouseholdStorage) async throws {
    let secrets = try await tokens(storage, devices: ["phone", "laptop", "tablet"])
    var configuration = ServerConfiguration()
    configuration.snapshotInterval = 6
    configuration.snapshotPageRecords = 3
    try await withServer(storage, configuration: configuration) { url, _ in
      try await onThread {
        let clock = TickingClock()
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(10)), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
        #expect(try phone.engine.cloud.snapshotPage(0, at: nil) == nil, "a short log has no snapshot")
        for index in 0..<4 {
          _ = try phone.library.categories.getOrCreate("Aisle \(index)")
          _ = try phone.library.ingredients.getOrCreate("food \(index)", category: "Aisle \(index)")
          try phone.engine.sync()
          try laptop.engine.sync()
          _ = try laptop.library.categories.rename("Aisle \(index)", to: "Shelf \(index)")
          try laptop.engine.sync()
        }
        try phone.engine.sync()
        let first = try #require(try phone.engine.cloud.snapshotPage(0, at: nil))
        #expect(first.position >= 6 && first.pageCount >= 3)
        // Batches after the snapshot's position: the new device pulls them.
        _ = try laptop.library.categories.getOrCreate("Bakery")
        try laptop.engine.sync()
        let tablet = try Device("tablet", cloud: HTTPCloud(url: url, token: secrets[2], timeout: .seconds(10)), clock: clock, seed: 3)
        let report = try tablet.engine.sync()
        #expect(report.snapshotPosition == first.position)
        #expect(report.pulledBatches >= 1, "the batches after the snapshot were not pulled")
        try phone.engine.sync()
        #expect(try tablet.view() == phone.view())
        #expect(try tablet.view().contains("category Bakery"))
        #expect(try tablet.view().contains("ingredient food 3 in Shelf 3"))
        #expect(try SyncVerifier(store: tablet.store).verify().differences.isEmpty)
        // A position the server no longer keeps is no snapshot.
        #expect(try phone.engine.cloud.snapshotPage(0, at: first.position + 1_000) == nil)
      }
    }
  }

  @Test func aNewDeviceStartsFromTheSnapshotInMemory() async throws {
    try await Self.checkNewDeviceStartsFromTheSnapshot(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aNewDeviceStartsFromTheSnapshotOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkNewDeviceStartsFromTheSnapshot(storage) }
  }
}
