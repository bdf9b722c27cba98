import AsyncHTTPClient
import BenchBaselines
import Foundation
import Logging
import Model
import PostgresNIO
import ServerTestSupport
import SpawnSupport
import Sync
import SyncPostgres
import SyncServer
import SyncWire

/// Whether a household's push cost follows its history: saturated pushes through the server
/// into a household whose log already holds `serverlog.batches` batches, against the same
/// pushes into a fresh household, on one server and one PostgreSQL cluster, in alternating
/// phases so the machine's drift weighs the same on both.
enum ServerLogScenario {
  static let scenario = Scenario(
    id: "serverlog", title: "sync server: saturated pushes into a long log vs a fresh one",
    target: "pushes/s into a log of 10⁶ batches within 10 % of a fresh log's",
    parameters: ["serverlog.batches", "serverlog.devices", "serverlog.seconds", "serverlog.phases"]
  ) { context in
    if let skipped = ScenarioResult.skippedWithoutPostgres(context) { return skipped }
    return try ServerLoadScenario.blocking { try await run(context) }
  }

  static func run(_ context: Context) async throws -> ScenarioResult {
    let history = max(1, context.sizes["serverlog.batches"]), deviceCount = max(1, context.sizes["serverlog.devices"])
    let seconds = Double(max(1, context.sizes["serverlog.seconds"])), phases = max(1, context.sizes["serverlog.phases"])
    let database = try await BenchDatabase.start(context, name: "serverlog")
    defer { database.stop() }
    let (url, client, storage, admin) = (database.url, database.client, database.storage, database.admin)
    var devices: [String: [LoadDevice]] = [:]
    for household in ["long", "fresh"] {
      _ = try await admin.addHousehold(household)
      for index in 0..<deviceCount {
        let issued = try await admin.issueToken(household: household, device: "device \(index)")
        devices[household, default: []].append(
          LoadDevice(
            token: issued.token.secret, replica: "\(household)-\(index)", household: household == "long" ? 0 : 1, changes: 20,
            stagger: 0, ids: .seeded(UInt64(index))))
      }
    }
    guard let long = try await storage.household(named: "long"), let longDevices = devices["long"], let freshDevices = devices["fresh"]
    else { throw BenchError("the households were not created") }
    let loadStart = nanoseconds()
    let loader = try await storage.device(named: "history", in: long.id, now: Date())
    try await fillLog(client, household: long.id, device: loader, payload: longDevices[0].batch(sequence: 1), count: history)
    let loadSeconds = Double(nanoseconds() - loadStart) / 1e9
    // The long household's devices pull from the log's end, as devices that synced all
    // along do: both households' pulls then read the pages the phases push.
    for device in longDevices { device.startPulls(after: Int64(history)) }

    // The server with the per-token rate lifted (as `live` runs it): a few devices then
    // push as fast as the server takes them, rather than at their token's rate.
    let log = context.path("server.log")
    let server = try Spawn.start(
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, ["--serve-load", url, "--serve-live"], output: log)
    defer {
      kill(server, SIGTERM)
      _ = try? Spawn.wait(server, program: "forager-bench --serve-load", timeout: 10)
    }
    let base = try ServerLoadScenario.waitForPort(log)
    var httpConfiguration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5)))
    httpConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 2 * deviceCount)
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)

    var longRates: [Double] = [], freshRates: [Double] = []
    var longLatencies: [Double] = [], freshLatencies: [Double] = []
    var outcomes: [LoadDevice.Outcome] = []
    for _ in 0..<phases {
      let longPhase = try await ServerLoadScenario.phase(longDevices, http, base: base, seconds: seconds) { _ in 0 }
      let freshPhase = try await ServerLoadScenario.phase(freshDevices, http, base: base, seconds: seconds) { _ in 0 }
      outcomes += longPhase.outcomes + freshPhase.outcomes
      let longPushes = longPhase.outcomes.flatMap(\.pushLatencies), freshPushes = freshPhase.outcomes.flatMap(\.pushLatencies)
      longLatencies += longPushes
      freshLatencies += freshPushes
      longRates.append(Double(longPushes.count) / longPhase.elapsed)
      freshRates.append(Double(freshPushes.count) / freshPhase.elapsed)
    }
    try await http.shutdown()
    // A run whose requests fail measures the failures (and a failing pull is quick).
    try ServerLoadScenario.failIfAnyFailed(outcomes)
    let longRate = longRates.reduce(0, +) / Double(longRates.count)
    let freshRate = freshRates.reduce(0, +) / Double(freshRates.count)

    var result = ScenarioResult(context)
    result.forager = Stats(longLatencies)
    result.baseline = Stats(freshLatencies)
    result.ratio = freshRate / max(longRate, .leastNonzeroMagnitude)
    result.judge((result.ratio ?? .infinity) <= 1.1)
    result.figures = [
      "long log: batches before the phases count": Double(history),
      "long log: pushes/s": longRate, "fresh log: pushes/s": freshRate,
      "long log: push p99": result.forager?.p99 ?? result.forager?.max ?? .nan,
      "fresh log: push p99": result.baseline?.p99 ?? result.baseline?.max ?? .nan,
      "history written by SQL s": loadSeconds,
      "server peak MiB": ServerLoadScenario.peakResidentMiB(of: server),
    ]
    for (index, rate) in longRates.enumerated() { result.figures["phase \(index + 1): long log pushes/s"] = rate }
    for (index, rate) in freshRates.enumerated() { result.figures["phase \(index + 1): fresh log pushes/s"] = rate }
    result.note =
      "ratio = fresh log's saturated pushes/s ÷ the long log's (1 = flat); \(deviceCount) devices a household push a batch of 20 changes "
      + "and pull a page, flat out (the token rate limit lifted), \(phases) phase(s) of \(Int(seconds)) s each, long and fresh in turn; the long log's \(history) batches "
      + "are written by SQL before the server starts; \(context.postgresNote)"
    return result
  }

  /// Writes `count` batches of `payload` into a household's log in one statement, as if
  /// `device` had pushed them, and sets the household's and the device's counters as pushes
  /// leave them. The per-row triggers (byte counts, live notices) are off while it runs: they
  /// would update the household's row once per batch inside one transaction.
  static func fillLog(_ client: PostgresClient, household: Int64, device: Int64, payload: Data, count: Int) async throws {
    let logger = Logger(label: "bench")
    try await client.withTransaction(logger: logger) { connection in
      try await connection.query("ALTER TABLE batches DISABLE TRIGGER USER", logger: logger)
      try await connection.query(
        """
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
        SELECT \(household), n, 'history:' || n, \(device), n, 'history', \(Int(ChangeBatchCoding.schemaVersion)), \(payload), now()
        FROM generate_series(1::bigint, \(Int64(count))) AS n
        """, logger: logger)
      try await connection.query("ALTER TABLE batches ENABLE TRIGGER USER", logger: logger)
      try await connection.query(
        """
        UPDATE households SET last_sequence = \(Int64(count)), stored_bytes = \(Int64(count) * Int64(payload.count))
        WHERE id = \(household)
        """, logger: logger)
      try await connection.query(
        "UPDATE devices SET last_device_sequence = \(Int64(count)), replica_id = 'history' WHERE id = \(device)", logger: logger)
    }
    try await client.query("VACUUM ANALYZE batches", logger: logger)
  }
}
