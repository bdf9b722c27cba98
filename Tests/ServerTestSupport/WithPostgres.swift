import Foundation
import Logging
public import PostgresNIO
public import SyncPostgres
import SyncServer

/// Whether the integration tests can run: they are reported as skipped where not.
public let postgresAvailable = TemporaryPostgres.unavailableReason == nil

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
