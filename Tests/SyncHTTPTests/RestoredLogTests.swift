import Foundation
import PostgresNIO
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import TestSupport
import Testing

/// A device whose place in the log is past its end — the server's database was restored
/// from an earlier point — is told where the log ends and pulls from there, so it receives
/// the batches pushed after the restore instead of skipping them as already seen.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(5)))
struct RestoredLogTests {
  @Test func aDeviceAheadOfARestoredLogReceivesWhatIsPushedAfterTheRestore() async throws {
    try await withPostgres { client, storage, _ in
      let secrets = try await tokens(storage, devices: ["phone", "laptop"])
      try await withServer(storage) { url, _ in
        let (phone, laptop) = try await onThread {
          let clock = TickingClock()
          let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(10)), clock: clock, seed: 1)
          let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
          _ = try phone.library.categories.getOrCreate("Produce")
          try phone.engine.sync()
          try laptop.engine.sync()
          _ = try phone.library.categories.getOrCreate("Dairy")
          try phone.engine.sync()
          try laptop.engine.sync()
          #expect(try laptop.view() == ["category Dairy", "category Produce"])
          return (phone, laptop)
        }
        // The database is restored to a backup taken after the first batch.
        try await client.query("DELETE FROM batches WHERE sequence > 1")
        try await client.query("UPDATE households SET last_sequence = 1")
        try await client.query("UPDATE devices SET last_device_sequence = 1 WHERE name = 'phone'")
        try await onThread {
          // The laptop's place (2) is past the log's end (1): it moves back to 1.
          try laptop.engine.sync()
          #expect(
            laptop.engine.monitor.status.events.contains { $0.detail.contains("the cloud's log ends at 1, before this device's place 2") })
          // The phone pushes again; its batch takes sequence 2, which the laptop receives.
          _ = try phone.library.categories.getOrCreate("Bakery")
          try phone.engine.sync()
          try laptop.engine.sync()
          #expect(try laptop.view() == ["category Bakery", "category Dairy", "category Produce"])
        }
      }
    }
  }
}
