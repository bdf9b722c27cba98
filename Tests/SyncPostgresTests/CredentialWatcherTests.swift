import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import ServiceLifecycle
import SyncPostgres
import SyncServer
import Synchronization
import Testing

/// The credential watcher as a server runs it: a service after the database client in one
/// service group, watching from when the client runs and stopped first by a graceful
/// shutdown, so the group (and the server process) ends.
@Suite(.timeLimit(.minutes(2))) struct CredentialWatcherTests {
  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aGracefulShutdownStopsTheWatcherAndItsGroupEnds() async throws {
    try await withPostgres { other, _, location in
      let logger = Logger(label: "test")
      let client = PostgresClient(configuration: location.configuration)
      let storage = PostgresHouseholdStorage(client: client, logger: logger)
      let watcher = CredentialWatcher(storage: storage)
      let group = ServiceGroup(configuration: .init(services: [client, watcher], logger: logger))
      let ended = Mutex(false)
      let running = Task {
        defer { ended.withLock { $0 = true } }
        try await group.run()
      }
      watcher.clientRuns()
      let admin = Administration(storage: storage)
      _ = try await admin.addHousehold("Smith")
      let phone = try await admin.issueToken(household: "Smith", device: "phone")
      // Watching: lookups are answered from the cache.
      #expect(try await CredentialCacheTests.eventually { try await CredentialCacheTests.isCached(storage, other, phone) })

      await group.triggerGracefulShutdown()
      // The group ends by itself; a watcher that ignored the shutdown would hold it open.
      let stopped = try await CredentialCacheTests.eventually { ended.withLock { $0 } }
      #expect(stopped, "the service group did not end within 10 s of a graceful shutdown")
      if !stopped { running.cancel() }
      try await running.value
    }
  }
}
