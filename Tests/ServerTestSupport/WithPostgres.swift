import Foundation
import Logging
public import PostgresNIO
public import SyncPostgres
import SyncServer

/// Whether PostgreSQL must be there (`FORAGER_REQUIRE_POSTGRES=1`, which the test command
/// sets after installing it): a missing PostgreSQL is then a failure, not a skip.
public let postgresRequired = ProcessInfo.processInfo.environment["FORAGER_REQUIRE_POSTGRES"] == "1"

/// Whether the integration tests run: where PostgreSQL can run, and wherever it is required
/// (they then fail with the reason it cannot). Elsewhere they are reported as skipped.
public let postgresAvailable = TemporaryPostgres.unavailableReason == nil || postgresRequired

/// A fresh database on the process's throwaway cluster, with the schema set up, and a
/// running client; the client stops when `body` returns.
public func withPostgres<T: Sendable>(
  _ name: String = #function, _ body: @escaping @Sendable (PostgresClient, PostgresHouseholdStorage, PostgresLocation) async throws -> T
) async throws -> T {
  let label = name.prefix { $0.isLetter }.prefix(40) + "_" + UUID().uuidString.prefix(8)
  let location = try PostgresLocation(url: try TemporaryPostgres.shared().createDatabase(String(label)))
  return try await location.withRunningClient { client in
    let logger = Logger(label: "test")
    try await PostgresSchema.setUp(client, database: location.description, logger: logger)
    let storage = try await PostgresHouseholdStorage.open(client, database: location.description, logger: logger)
    return try await body(client, storage, location)
  }
}
