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
  @Option(help: "The port to listen on (0–65535; 0: any free port, printed when listening).") var port = 8080
  @Option(help: "The largest push body accepted, in bytes (1024 to 67108864, i.e. 64 MiB).")
  var maxBatchBytes = ServerConfiguration().maxBatchBytes
  @Option(help: "The largest page a pull may ask for, in batches (1–10000).") var maxPullLimit = ServerConfiguration().maxPullLimit
  @Option(help: "The most bytes of batches in one pull page (65536 to 268435456, i.e. 64 KiB to 256 MiB); a page ends early past it.")
  var maxPageBytes = ServerConfiguration().maxPageBytes
  @Option(help: "How many batches a household's log grows by after its last snapshot before a new one is made (1–10000000).")
  var snapshotInterval = ServerConfiguration().snapshotInterval
  @Option(help: "The most bytes of newer-schema batches a household may hold unread (1 to 1 GiB).")
  var heldBatchBytes = ServerConfiguration().heldBatchBytes
  @Option(help: "The most newer-schema batches a household may hold unread (1 to 100000).")
  var heldBatchCount = ServerConfiguration().heldBatchCount
  @Option(
    help:
      "The most bytes of batches a household's log may hold, unless it has its own (household-quota) (1048576 to 17592186044416, i.e. 1 MiB to 16 TiB)."
  )
  var householdStoredBytes = Int(ServerConfiguration().householdQuota.storedBytes)
  @Option(
    help:
      "The most bytes a household's devices may push in a UTC day, unless it has its own (1048576 to 17592186044416, i.e. 1 MiB to 16 TiB)."
  )
  var householdDailyPushBytes = Int(ServerConfiguration().householdQuota.dailyPushBytes)
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
  @Option(help: "Log lines as text, or as json: one object per line with a request's household, device, route, status, duration.")
  var logFormat = "text"
  @Option(help: "Serve Prometheus metrics on GET /metrics of this port (0–65535; 0: any free port, printed); none: no metrics.")
  var metricsPort: Int?
  @Option(help: "The address the metrics port listens on.") var metricsHost = "127.0.0.1"
  @Option(help: "How far a pushed stamp may lie ahead of this server's clock, in seconds (1–86400); later is 'clock-ahead'.")
  var allowedSkew = Int(ServerConfiguration().allowedSkew)
  @Option(help: "How long a request may wait for the database before it is answered 503 with Retry-After, in seconds (1–300).")
  var databaseTimeout = 10
  @Option(help: "How long serve waits at start-up for a database it cannot reach, in seconds (0–3600; 0: one attempt).")
  var waitForDatabase = 60
  @Option(help: "Close a connection that sends no complete request head, body part or end for this long, in seconds (1–3600).")
  var idleTimeout = 30
  @Option(help: "How long reading one request's body may take in all, in seconds (1–3600); past it: 408.")
  var bodyTimeout = 60
  @Option(help: "The most connections held open at once (1–100000); past it, new ones wait to be accepted.")
  var maxConnections = ServerConfiguration().maxConnections
  @Option(
    help: ArgumentHelp(
      "The most connections one client address may hold open (1–100000, at most --max-connections); past it, new ones are closed.",
      discussion:
        "Default: a quarter of --max-connections. Not with --trust-forwarded-for: every connection then comes from the proxy."))
  var maxConnectionsPerAddress: Int?
  @Option(help: "Batch checks (decoding and checking a pushed batch) run at once in this process (1–256; default: half the cores).")
  var checkSlots = ServerConfiguration.defaultCheckSlots
  @Option(help: "Batch checks of one household run at once (1–256); its others wait for a turn, which goes round the households.")
  var checksPerHousehold = ServerConfiguration().checksPerHousehold
  @Option(help: "Batch checks of one client address run at once (1–256).")
  var checksPerAddress = ServerConfiguration().checksPerAddress
  @Option(help: "Batch checks of one household, or of one address, that may wait for a turn (0–1000); past it: 429 check-queue-full.")
  var checkQueue = ServerConfiguration().checkQueue
  @Option(
    help: "How long one push's batch checks may take, waiting for turns included, in seconds (1–300); past it: 503 with Retry-After.")
  var checkTimeout = Int(ServerConfiguration().checkTimeout.components.seconds)
  @Option(help: "Pushes of one household sent to the database at once (1–100); the others wait in memory, holding no connection.")
  var pushesPerHousehold = ServerConfiguration().pushesPerHousehold
  @Option(help: "Requests per second one token may make, sustained (1–100000); past it: 429 with Retry-After.")
  var rateLimit = ServerConfiguration().tokenRequestsPerSecond
  @Option(help: "Requests one token may make at once before --rate-limit applies (1–100000).")
  var rateBurst = ServerConfiguration().tokenBurst
  @Option(help: "Requests per second one client address may make, sustained, with or without a token (1–100000); past it: 429.")
  var addressRateLimit = ServerConfiguration.defaultAddressRequestsPerSecond
  @Option(help: "Requests one client address may make at once before --address-rate-limit applies (1–100000).")
  var addressRateBurst = ServerConfiguration().addressBurst
  @Flag(
    help: ArgumentHelp(
      "Count a client by the last X-Forwarded-For hop, not the connection's peer (behind a proxy only).",
      discussion: "Only for a server nothing but the proxy can reach: otherwise a client names any address it likes."))
  var trustForwardedFor = false
  @Option(help: "Seconds between heartbeats on a quiet live subscription, GET /v1/live (1–300).")
  var liveHeartbeat = Int(ServerConfiguration().liveHeartbeat.components.seconds)
  @Option(
    help: ArgumentHelp(
      "Milliseconds a live subscription waits between two announcements (0–1000); closer ones are coalesced.",
      discussion: "A household writing faster than this is announced once a gap, with the newest end; 0 announces every commit."))
  var liveGapMs = Int(ServerConfiguration().liveAnnouncementGap / .milliseconds(1))
  @Option(
    help: ArgumentHelp(
      "Milliseconds a household's announcement may wait for its pushes under way to end (0–1000).",
      discussion:
        "Each of them ends the log further: subscribers hear once, when they have all ended or after this long; 0 announces every commit at once."
    ))
  var liveHoldMs = Int(ServerConfiguration().liveHoldWhilePushing / .milliseconds(1))
  @Option(help: "The most live subscriptions one token may hold at once (1–100); past it: 429 live-token-limit.")
  var livePerToken = ServerConfiguration().liveSubscribersPerToken
  @Option(
    help: ArgumentHelp(
      "The most live subscriptions this process holds (1–100000, below --max-connections); past it: 503 live-full.",
      discussion: "Default: 256, or half of --max-connections when that is lower."))
  var liveSubscribers: Int?

  /// `--live-subscribers`, or its default: 256, at most half the connections, so that
  /// subscriptions never take every connection a sync needs.
  var liveSubscriberLimit: Int { liveSubscribers ?? min(ServerConfiguration().liveSubscribers, max(1, maxConnections / 2)) }

  func validate() throws {
    try check(port, in: 0...65_535, option: "--port")
    try check(maxBatchBytes, in: ServerConfiguration.maxBatchBytesRange, option: "--max-batch-bytes")
    try check(maxPullLimit, in: ServerConfiguration.maxPullLimitRange, option: "--max-pull-limit")
    try check(maxPageBytes, in: ServerConfiguration.maxPageBytesRange, option: "--max-page-bytes")
    try check(snapshotInterval, in: SnapshotMaker.intervals, option: "--snapshot-interval")
    try check(allowedSkew, in: 1...86_400, option: "--allowed-skew")
    try check(databaseTimeout, in: 1...300, option: "--database-timeout")
    try check(waitForDatabase, in: 0...3_600, option: "--wait-for-database")
    try check(idleTimeout, in: 1...3_600, option: "--idle-timeout")
    try check(bodyTimeout, in: 1...3_600, option: "--body-timeout")
    try check(maxConnections, in: ServerConfiguration.maxConnectionsRange, option: "--max-connections")
    if let maxConnectionsPerAddress {
      try check(maxConnectionsPerAddress, in: ServerConfiguration.maxConnectionsPerAddressRange, option: "--max-connections-per-address")
      guard maxConnectionsPerAddress <= maxConnections else {
        throw ValidationError(
          "--max-connections-per-address (\(maxConnectionsPerAddress)) must be at most --max-connections (\(maxConnections))")
      }
      guard !trustForwardedFor else {
        throw ValidationError(
          "--max-connections-per-address cannot be given with --trust-forwarded-for: every connection comes from the proxy, "
            + "so it would limit the proxy; limit connections per client in the proxy")
      }
    }
    try check(checkSlots, in: ServerConfiguration.checkSlotsRange, option: "--check-slots")
    try check(checksPerHousehold, in: ServerConfiguration.checkSlotsRange, option: "--checks-per-household")
    try check(checksPerAddress, in: ServerConfiguration.checkSlotsRange, option: "--checks-per-address")
    try check(checkQueue, in: ServerConfiguration.checkQueueRange, option: "--check-queue")
    try check(checkTimeout, in: ServerConfiguration.checkTimeoutRange, option: "--check-timeout")
    try check(rateLimit, in: ServerConfiguration.tokenRequestsPerSecondRange, option: "--rate-limit")
    try check(rateBurst, in: ServerConfiguration.burstRange, option: "--rate-burst")
    try check(addressRateLimit, in: ServerConfiguration.tokenRequestsPerSecondRange, option: "--address-rate-limit")
    try check(addressRateBurst, in: ServerConfiguration.burstRange, option: "--address-rate-burst")
    try check(pushesPerHousehold, in: 1...100, option: "--pushes-per-household")
    try check(liveHeartbeat, in: ServerConfiguration.liveHeartbeatRange, option: "--live-heartbeat")
    try check(liveGapMs, in: ServerConfiguration.liveAnnouncementGapRange, option: "--live-gap-ms")
    try check(liveHoldMs, in: ServerConfiguration.liveHoldWhilePushingRange, option: "--live-hold-ms")
    try check(livePerToken, in: ServerConfiguration.liveSubscribersPerTokenRange, option: "--live-per-token")
    if let liveSubscribers {
      try check(liveSubscribers, in: ServerConfiguration.liveSubscribersRange, option: "--live-subscribers")
      guard liveSubscribers < maxConnections else {
        throw ValidationError(
          "--live-subscribers (\(liveSubscribers)) must be below --max-connections (\(maxConnections)): each subscription holds a connection"
        )
      }
    }
    _ = try Self.level(logLevel)
    guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format must be text or json; got '\(logFormat)'") }
    if let metricsPort { try check(metricsPort, in: 0...65_535, option: "--metrics-port") }
    try check(
      householdStoredBytes, in: Int(HouseholdQuota.storedBytesRange.lowerBound)...Int(HouseholdQuota.storedBytesRange.upperBound),
      option: "--household-stored-bytes")
    try check(
      householdDailyPushBytes, in: Int(HouseholdQuota.dailyPushBytesRange.lowerBound)...Int(HouseholdQuota.dailyPushBytesRange.upperBound),
      option: "--household-daily-push-bytes")
    do throws(ServerError) {
      try HeldBatchQuota(maxBytes: heldBatchBytes, maxCount: heldBatchCount).validate()
    } catch {
      throw ValidationError(error.message)
    }
  }

  func run() async throws {
    if logFormat == "json" { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
    var logger = Logger(label: "forager-server")
    logger.logLevel = try Self.level(logLevel)
    var configuration = ServerConfiguration(
      maxBatchBytes: maxBatchBytes, maxPullLimit: maxPullLimit, heldBatchBytes: heldBatchBytes, heldBatchCount: heldBatchCount)
    configuration.allowedSkew = TimeInterval(allowedSkew)
    configuration.storageTimeout = .seconds(databaseTimeout)
    configuration.maxPageBytes = maxPageBytes
    configuration.snapshotInterval = snapshotInterval
    configuration.householdQuota = HouseholdQuota(storedBytes: Int64(householdStoredBytes), dailyPushBytes: Int64(householdDailyPushBytes))
    configuration.idleTimeout = .seconds(idleTimeout)
    configuration.bodyTimeout = .seconds(bodyTimeout)
    configuration.maxConnections = maxConnections
    configuration.maxConnectionsPerAddress =
      trustForwardedFor ? nil : maxConnectionsPerAddress ?? ServerConfiguration.defaultConnectionsPerAddress(maxConnections: maxConnections)
    configuration.checkSlots = checkSlots
    configuration.checksPerHousehold = checksPerHousehold
    configuration.checksPerAddress = checksPerAddress
    configuration.checkQueue = checkQueue
    configuration.checkTimeout = .seconds(checkTimeout)
    configuration.tokenRequestsPerSecond = rateLimit
    configuration.tokenBurst = rateBurst
    configuration.addressRequestsPerSecond = addressRateLimit
    configuration.addressBurst = addressRateBurst
    configuration.trustForwardedFor = trustForwardedFor
    configuration.pushesPerHousehold = pushesPerHousehold
    configuration.liveHeartbeat = .seconds(liveHeartbeat)
    configuration.liveAnnouncementGap = .milliseconds(liveGapMs)
    configuration.liveHoldWhilePushing = .milliseconds(liveHoldMs)
    configuration.liveSubscribersPerToken = livePerToken
    configuration.liveSubscribers = liveSubscriberLimit
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
    let wait = DatabaseWait(location: location, limit: .seconds(waitForDatabase))
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
    var services: [any Service] = [app]
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
