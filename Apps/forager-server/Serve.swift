import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncPostgres
import SyncServer

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Serve protocol v1 over HTTP until stopped (SIGINT, SIGTERM).")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port to listen on (0: any free port, printed when listening).") var port = 8080
  @Option(help: "The largest push body accepted, in bytes.") var maxBatchBytes = ServerConfiguration().maxBatchBytes
  @Option(help: "The largest page a pull may ask for.") var maxPullLimit = ServerConfiguration().maxPullLimit
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"

  func run() async throws {
    var logger = Logger(label: "forager-server")
    logger.logLevel = try Self.level(logLevel)
    let configuration = ServerConfiguration(maxBatchBytes: maxBatchBytes, maxPullLimit: maxPullLimit)
    let onRunning: @Sendable (Int) async -> Void = { port in
      FileHandle.standardOutput.write(Data("forager-server listening on http://\(host):\(port)\n".utf8))
    }
    let location = try database.location()
    let client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
    let storage = PostgresHouseholdStorage(client: client, logger: logger)
    let service = SyncService(storage: storage, configuration: configuration, logger: logger)
    var app = service.application(host: host, port: port, onRunning: onRunning)
    app.addServices(client)
    // Token lookups are cached while credential changes are heard (Docs/SERVER.md), from
    // when the database client runs.
    let (clientRuns, signal) = AsyncStream<Void>.makeStream()
    app.beforeServerStarts {
      do {
        try await storage.checkSchema(database: location.description)
      } catch {
        throw report(error)
      }
      signal.yield()
      signal.finish()
    }
    try await storage.watchingCredentialChanges(startingWhen: clientRuns) { try await app.runService() }
  }

  static func level(_ name: String) throws -> Logger.Level {
    guard let level = Logger.Level(rawValue: name.lowercased()) else {
      let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("--log-level '\(name)' is not a level; use one of \(names)")
    }
    return level
  }
}
