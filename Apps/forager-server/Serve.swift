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
  @Option(help: ServeLimit.port.help) var port: Int?
  @Option(help: ServeLimit.maxBatchBytes.help) var maxBatchBytes: Int?
  @Option(help: ServeLimit.maxPullLimit.help) var maxPullLimit: Int?
  @Option(help: ServeLimit.maxPageBytes.help) var maxPageBytes: Int?
  @Option(help: ServeLimit.snapshotInterval.help) var snapshotInterval: Int?
  @Option(help: ServeLimit.retention.help) var retention: Int?
  @Option(help: ServeLimit.heldBatchBytes.help) var heldBatchBytes: Int?
  @Option(help: ServeLimit.heldBatchCount.help) var heldBatchCount: Int?
  @Option(help: ServeLimit.householdStoredBytes.help) var householdStoredBytes: Int?
  @Option(help: ServeLimit.householdDailyPushBytes.help) var householdDailyPushBytes: Int?
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
  @Option(help: "Log lines as text, or as json: one object per line with a request's household, device, route, status, duration.")
  var logFormat = "text"
  @Option(help: ServeLimit.metricsPort.help) var metricsPort: Int?
  @Option(help: "The address the metrics port listens on.") var metricsHost = "127.0.0.1"
  @Option(help: ServeLimit.allowedSkew.help) var allowedSkew: Int?
  @Option(help: ServeLimit.databaseTimeout.help) var databaseTimeout: Int?
  @Option(help: ServeLimit.waitForDatabase.help) var waitForDatabase: Int?
  @Option(help: ServeLimit.idleTimeout.help) var idleTimeout: Int?
  @Option(help: ServeLimit.bodyTimeout.help) var bodyTimeout: Int?
  @Option(help: ServeLimit.maxConnections.help) var maxConnections: Int?
  @Option(help: ServeLimit.maxConnectionsPerAddress.help) var maxConnectionsPerAddress: Int?
  @Option(help: ServeLimit.checkSlots.help) var checkSlots: Int?
  @Option(help: ServeLimit.checksPerHousehold.help) var checksPerHousehold: Int?
  @Option(help: ServeLimit.checksPerAddress.help) var checksPerAddress: Int?
  @Option(help: ServeLimit.checkQueue.help) var checkQueue: Int?
  @Option(help: ServeLimit.checkTimeout.help) var checkTimeout: Int?
  @Option(help: ServeLimit.pushesPerHousehold.help) var pushesPerHousehold: Int?
  @Option(help: ServeLimit.rateLimit.help) var rateLimit: Int?
  @Option(help: ServeLimit.rateBurst.help) var rateBurst: Int?
  @Option(help: ServeLimit.addressRateLimit.help) var addressRateLimit: Int?
  @Option(help: ServeLimit.addressRateBurst.help) var addressRateBurst: Int?
  @Flag(
    help: ArgumentHelp(
      "Count a client by the last X-Forwarded-For hop, not the connection's peer (behind a proxy only).",
      discussion: "Only for a server nothing but the proxy can reach: otherwise a client names any address it likes."))
  var trustForwardedFor = false
  @Option(help: ServeLimit.liveHeartbeat.help) var liveHeartbeat: Int?
  @Option(help: ServeLimit.liveGapMs.help) var liveGapMs: Int?
  @Option(help: ServeLimit.liveHoldMs.help) var liveHoldMs: Int?
  @Option(help: ServeLimit.livePerToken.help) var livePerToken: Int?
  @Option(help: ServeLimit.liveSubscribers.help) var liveSubscribers: Int?

  func validate() throws {
    for limit in ServeLimit.all { try limit.validate(self) }
    let connections = ServeLimit.maxConnections.value(in: self) ?? 0
    if let maxConnectionsPerAddress {
      guard maxConnectionsPerAddress <= connections else {
        throw ValidationError(
          "--max-connections-per-address (\(maxConnectionsPerAddress)) must be at most --max-connections (\(connections))")
      }
      guard !trustForwardedFor else {
        throw ValidationError(
          "--max-connections-per-address cannot be given with --trust-forwarded-for: every connection comes from the proxy, "
            + "so it would limit the proxy; limit connections per client in the proxy")
      }
    }
    if let liveSubscribers {
      guard liveSubscribers < connections else {
        throw ValidationError(
          "--live-subscribers (\(liveSubscribers)) must be below --max-connections (\(connections)): each subscription holds a connection"
        )
      }
    }
    _ = try Self.level(logLevel)
    guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format must be text or json; got '\(logFormat)'") }
  }

  /// The configuration the service runs with: the defaults, with every limit's value.
  var serverConfiguration: ServerConfiguration {
    var configuration = ServerConfiguration()
    for limit in ServeLimit.all { limit.apply(self, to: &configuration) }
    configuration.trustForwardedFor = trustForwardedFor
    return configuration
  }

  func run() async throws {
    if logFormat == "json" { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
    var logger = Logger(label: "forager-server")
    logger.logLevel = try Self.level(logLevel)
    let configuration = serverConfiguration
    let port = ServeLimit.port.value(in: self) ?? 0
    let metricsPort = ServeLimit.metricsPort.value(in: self)
    let onRunning: @Sendable (Int) async -> Void = { port in
      FileHandle.standardOutput.write(Data("forager-server listening on http://\(host):\(port)\n".utf8))
    }
    let registry = metricsPort.map { _ in MetricsEndpoint.bootstrap() }
    let location = try database.location()
    let client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
    let storage = PostgresHouseholdStorage(client: client, logger: logger)
    let service = SyncService(storage: storage, configuration: configuration, logger: logger)
    var app = service.application(host: host, port: port, onRunning: onRunning)
    let watcher = CredentialWatcher(storage: storage, announcer: service.announcer)
    // Stopped in reverse order: the HTTP server first, then the watcher, then the client.
    app.addServices(client, watcher)
    let wait = DatabaseWait(location: location, limit: .seconds(ServeLimit.waitForDatabase.value(in: self) ?? 0))
    app.beforeServerStarts {
      do {
        try await wait.run {
          try await storage.checkSchema(database: location.description)
        }
      } catch {
        throw report(error)
      }
      watcher.clientRuns()
    }
    var services: [any Service] = [app, LogCompactor(storage: storage, configuration: configuration, logger: logger)]
    if let registry, let metricsPort {
      services.append(
        MetricsEndpoint.application(registry: registry, host: metricsHost, port: metricsPort) { [metricsHost] port in
          FileHandle.standardOutput.write(Data("forager-server metrics on http://\(metricsHost):\(port)/metrics\n".utf8))
        })
    }
    var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
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
