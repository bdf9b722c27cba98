import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncPostgres
import SyncServer

/// `forager-server`: the sync server and its administration (Docs/SERVER.md).
@main
struct ForagerServer: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forager-server",
    abstract: "Forager's sync server: households' change batches on PostgreSQL, over HTTP.",
    subcommands: [
      Serve.self, SetupDatabase.self, AddHousehold.self, Households.self, RenameHousehold.self, DeleteHousehold.self, IssueToken.self,
      RevokeToken.self, Devices.self, SetMinimumSchema.self, HeldBatches.self, RetireBatch.self, HouseholdQuotaCommand.self,
      ServeLimitsCommand.self, RestoreHousehold.self, CompactHousehold.self,
    ]
  )
}

/// The database option every command shares.
struct DatabaseOptions: ParsableArguments {
  @Option(name: .customLong("database-url"), help: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (default: $DATABASE_URL)")
  var url: String?

  func location() throws -> PostgresLocation {
    guard let url = url ?? ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
      throw ValidationError("give --database-url or set DATABASE_URL")
    }
    do {
      return try PostgresLocation(url: url)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// Runs `body` with a running client to the database; stops the client afterwards.
  func withClient<T: Sendable>(_ body: @escaping @Sendable (PostgresClient, PostgresLocation) async throws -> T) async throws -> T {
    let location = try location()
    return try await location.withRunningClient { client in try await body(client, location) }
  }

  func withAdministration<T: Sendable>(
    configuration: ServerConfiguration = ServerConfiguration(), _ body: @escaping @Sendable (Administration) async throws -> T
  ) async throws -> T {
    try await withClient { client, location in
      let storage = try await PostgresHouseholdStorage.open(client, database: location.description)
      return try await body(Administration(storage: storage, configuration: configuration))
    }
  }
}

/// Errors reach the user as one line, without a stack of wrappers (and without the usage
/// text, which is for mistakes in the command line).
func report(_ error: any Error) -> any Error {
  switch error {
  case let error as ServerError: CommandFailure(error.message)
  case let error as PostgresStorageError: CommandFailure(error.description)
  case let error as TokenFileError: CommandFailure(error.description)
  case let error as PSQLError: CommandFailure("the database refused: \(error.serverInfo?[.message] ?? String(describing: error.code))")
  default: error
  }
}

/// A command that could not do its work: printed as "Error: <message>", exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
