import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle
import SyncPostgres
import SyncServer
import UnixSignals

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Serve protocol v1 over HTTP until stopped (SIGINT, SIGTERM).")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port to listen on (0: any free port, printed when listening).") var port = 8080
  @Option(help: "The largest push body accepted, in bytes.") var maxBatchBytes = ServerConfiguration().maxBatchBytes
  @Option(help: "The largest page a pull may ask for.") var maxPullLimit = ServerConfiguration().maxPullLimit
  @Option(help: "The most bytes of newer-schema batches a household may hold unread (1 to 1 GiB).")
  var heldBatchBytes = ServerConfiguration().heldBatchBytes
  @Option(help: "The most newer-schema batches a household may hold unread (1 to 100000).")
  var heldBatchCount = ServerConfiguration().heldBatchCount
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
  @Option(help: "How far a pushed stamp may lie ahead of this server's clock, in seconds (1–86400); later is 'clock-ahead'.")
  var allowedSkew = Int(ServerConfiguration().allowedSkew)

  func validate() throws {
    guard (1...86_400).contains(allowedSkew) else {
      throw ValidationError("--allowed-skew must be a whole number of seconds from 1 to 86400; got \(allowedSkew)")
    }
    do throws(ServerError) {
      try HeldBatchQuota(maxBytes: heldBatchBytes, maxCount: heldBatchCount).validate()
    } catch {
      throw ValidationError(error.message)
    }
  }

  func run() async throws {
    var logger = Logger(label: "forager-server")
    logger.logLevel = try Self.level(logLevel)
    var configuration = ServerConfiguration(
      maxBatchBytes: maxBatchBytes, maxPullLimit: maxPullLimit, heldBatchBytes: heldBatchBytes, heldBatchCount: heldBatchCount)
    configuration.allowedSkew = TimeInterval(allowedSkew)
    let onRunning: @Sendable (Int) async -> Void = { port in
      FileHandle.standardOutput.write(Data("forager-server listening on http://\(host):\(port)\n".utf8))
    }
    let location = try database.location()
    let client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
    let storage = PostgresHouseholdStorage(client: client, logger: logger)
    let service = SyncService(storage: storage, configuration: configuration, logger: logger)
    var app = service.application(host: host, port: port, onRunning: onRunning)
    let watcher = CredentialWatcher(storage: storage)
    // Stopped in reverse order: the HTTP server first, then the watcher, then the client.
    app.addServices(client, watcher)
    app.beforeServerStarts {
      do {
        try await storage.checkSchema(database: location.description)
      } catch {
        throw report(error)
      }
      watcher.clientRuns()
    }
    var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    // Requests under way get this long to finish after SIGTERM or SIGINT; then they are cancelled.
    group.maximumGracefulShutdownDuration = Self.shutdownGrace
    try await ServiceGroup(configuration: group).run()
  }

  static let shutdownGrace = Duration.seconds(10)

  static func level(_ name: String) throws -> Logger.Level {
    guard let level = Logger.Level(rawValue: name.lowercased()) else {
      let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("--log-level '\(name)' is not a level; use one of \(names)")
    }
    return level
  }
}
