import AsyncHTTPClient
import BenchBaselines
import Foundation
import Hummingbird
import Logging
import Model
import NIOCore
import NIOHTTP1
import Normalization
import PostgresNIO
import ServerTestSupport
import SpawnSupport
import Sync
import SyncPostgres
import SyncServer
import SyncWire

/// `forager-server` under load: simulated devices push and pull over loopback for a bounded
/// time against a server process on a throwaway PostgreSQL cluster. The baseline is the same
/// batches inserted into the same table by one PostgreSQL client, one INSERT per batch.
enum ServerLoadScenario {
  static let scenario = Scenario(
    id: "server", title: "sync server: devices pushing and pulling over loopback",
    target: "push ≥ 50 % of direct insert; p99 push < 50 ms, also for the others while one household floods",
    parameters: ["server.devices", "server.households", "server.seconds", "server.changes", "server.pace.ms"]
  ) { context in
    if let skipped = ScenarioResult.skippedWithoutPostgres(context) { return skipped }
    return try blocking { try await run(context) }
  }

  /// Runs async work from the scenario's synchronous thread (not an event loop).
  static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
      do {
        box.result = .success(try await body())
      } catch {
        box.result = .failure(error)
      }
      done.signal()
    }
    done.wait()
    guard let result = box.result else { throw BenchError("the load run ended without a result") }
    return try result.get()
  }

  final class ResultBox<T>: @unchecked Sendable { var result: Result<T, any Error>? }

  static func run(_ context: Context) async throws -> ScenarioResult {
    let deviceCount = context.sizes["server.devices"], householdCount = max(1, context.sizes["server.households"])
    let seconds = Double(context.sizes["server.seconds"]), changes = max(1, context.sizes["server.changes"])
    let database = try await BenchDatabase.start(context, name: "load")
    defer { database.stop() }
    let (url, client, storage, admin) = (database.url, database.client, database.storage, database.admin)
    var devices: [LoadDevice] = []
    for household in 0..<householdCount { _ = try await admin.addHousehold("household \(household)") }
    for index in 0..<deviceCount {
      let issued = try await admin.issueToken(household: "household \(index % householdCount)", device: "device \(index)")
      devices.append(
        LoadDevice(
          token: issued.token.secret, replica: "replica-\(index)", household: index % householdCount, changes: changes,
          stagger: Double(index) / Double(deviceCount), ids: .seeded(UInt64(index))))
    }

    // The server: this executable in serve mode, so its memory is its own.
    let log = context.path("server.log")
    let server = try Spawn.start(
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, ["--serve-load", url], output: log)
    defer {
      kill(server, SIGTERM)
      _ = try? Spawn.wait(server, program: "forager-bench --serve-load", timeout: 10)
    }
    let base = try waitForPort(log)

    // Two phases. Saturated: every device pushes a batch and pulls what is new, again and
    // again — the server's throughput (its latency is then only the queue: 100 clients ÷
    // the requests served per second). Paced: every device syncs every `server.pace.ms`, as
    // devices do — the latency a device sees with 100 devices active.
    // A connection per device, as real devices have: the client's default of 8 connections
    // per host would queue 100 devices behind 8 sockets and measure that queue instead.
    var httpConfiguration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5)))
    httpConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: devices.count)
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)
    let serverCPUBefore = cpuSeconds(of: server), clientCPUBefore = ownCPUSeconds()
    let saturated = try await phase(devices, http, base: base, seconds: seconds) { _ in 0 }
    let serverCPU = cpuSeconds(of: server) - serverCPUBefore, clientCPU = ownCPUSeconds() - clientCPUBefore
    let pace = UInt64(max(0, context.sizes["server.pace.ms"])) * 1_000_000
    let paced = try await phase(devices, http, base: base, seconds: seconds) { _ in pace }
    // Fairness: household 0's devices push flat out while every other household's devices
    // sync at the pace, as one buggy or hostile household would: the others' latency
    // should stay near the paced phase's.
    let fairness = try await phase(devices, http, base: base, seconds: seconds) { $0.household == 0 ? 0 : pace }
    try await http.shutdown()
    let serverPeak = peakResidentMiB(of: server)
    let pushLatencies = saturated.outcomes.flatMap(\.pushLatencies), pulls = saturated.outcomes.map(\.pulls).reduce(0, +)
    let pacedLatencies = Stats(paced.outcomes.flatMap(\.pushLatencies))
    let others = fairness.outcomes.filter { $0.household != 0 }, flood = fairness.outcomes.filter { $0.household == 0 }
    let othersLatencies = Stats(others.flatMap(\.pushLatencies))
    // Requests that failed (not counting 429s, past a token's rate limit, counted apart); the
    // flooding household's are the point of its phase.
    let counted = saturated.outcomes + paced.outcomes + others
    let failures = counted.map(\.failures).reduce(0, +)
    // A load run whose requests fail measures the failures: it is an error, not a figure.
    try failIfAnyFailed(counted)
    let elapsed = saturated.elapsed
    let pushRate = Double(pushLatencies.count) / elapsed

    // The baseline: the same number of batches of the same size, inserted by one client.
    let payload = devices[0].batch(sequence: 1)
    let baselineCount = max(200, min(pushLatencies.count, 5_000))
    let household = try await storage.household(named: "household 0")
    let deviceID = try await storage.device(named: "baseline", in: household?.id ?? 1, now: Date())
    let baselineSeconds =
      Double(try await insertDirectly(client, household: household?.id ?? 1, device: deviceID, payload: payload, count: baselineCount))
      / 1e9
    let baselineRate = Double(baselineCount) / baselineSeconds

    var result = ScenarioResult(context)
    result.forager = Stats(pushLatencies)
    result.baseline = Stats([baselineSeconds / Double(baselineCount)])
    result.ratio = pushRate / baselineRate
    result.figures = [
      "pushes/s": pushRate, "pulls/s": Double(pulls) / elapsed, "direct inserts/s": baselineRate,
      "saturated push p50": result.forager?.median ?? .nan, "saturated push p99": result.forager?.p99 ?? .nan,
      "paced push p50": pacedLatencies.median, "paced push p99": pacedLatencies.p99 ?? .nan,
      "paced pushes/s": Double(pacedLatencies.count) / paced.elapsed,
      "one household flooding: others' push p50": othersLatencies.median,
      "one household flooding: others' push p99": othersLatencies.p99 ?? .nan,
      "one household flooding: its pushes/s": Double(flood.map(\.pushLatencies.count).reduce(0, +)) / fairness.elapsed,
      "one household flooding: its requests refused (429) count": Double(flood.map(\.limited).reduce(0, +)),
      "rate-limited requests in the other phases count": Double((saturated.outcomes + paced.outcomes + others).map(\.limited).reduce(0, +)),
      "server peak MiB": serverPeak, "failed requests count": Double(failures), "batch bytes count": Double(payload.count),
      // CPU time per sync (a push and a pull) in the saturated phase: unlike the rates, it
      // does not move with what else the machine runs.
      "server CPU per sync": serverCPU / Double(max(1, pushLatencies.count)),
      "clients' CPU per sync": clientCPU / Double(max(1, pushLatencies.count)),
    ]
    // Fewer than 100 paced pushes give no 99th percentile, and so no verdict (the smoke run).
    if let p99 = pacedLatencies.p99, let othersP99 = othersLatencies.p99 {
      result.verdict = failures == 0 && pushRate >= 0.5 * baselineRate && p99 < 0.05 && othersP99 < 0.05 ? "met" : "missed"
    } else {
      result.verdict = failures == 0 ? "too few samples" : "missed"
    }
    result.note =
      "ratio = saturated server pushes/s ÷ direct inserts/s; latency target on the paced phase (a sync every "
      + "\(context.sizes["server.pace.ms"]) ms per device); a third phase paces every household but household 0, whose devices push flat out; "
      + "\(deviceCount) devices in \(householdCount) households, \(Int(seconds)) s per phase; \(context.postgresNote)"
    return result
  }

  /// Throws when a request of `outcomes` failed (429s not counted): a load run whose
  /// requests fail measures the failures, and a failing pull is quick.
  static func failIfAnyFailed(_ outcomes: [LoadDevice.Outcome]) throws {
    let failures = outcomes.map(\.failures).reduce(0, +)
    guard failures > 0 else { return }
    let first = outcomes.compactMap(\.firstFailure).first ?? "nothing recorded"
    throw BenchError("\(failures) request(s) failed; the first was answered \(first)")
  }

  /// Runs every device for `seconds`, each pausing `pause` nanoseconds between syncs.
  static func phase(
    _ devices: [LoadDevice], _ http: HTTPClient, base: String, seconds: Double, pause: (LoadDevice) -> UInt64
  ) async throws -> (outcomes: [LoadDevice.Outcome], elapsed: Double) {
    let started = nanoseconds()
    let deadline = started + UInt64(seconds * 1e9)
    let outcomes = try await withThrowingTaskGroup(of: LoadDevice.Outcome.self) { group in
      for device in devices {
        let pause = pause(device)
        group.addTask { try await device.run(http, base: base, until: deadline, pause: pause) }
      }
      var all: [LoadDevice.Outcome] = []
      for try await outcome in group { all.append(outcome) }
      return all
    }
    return (outcomes, Double(nanoseconds() - started) / 1e9)
  }

  /// The server's address, from its "listening on" line.
  static func waitForPort(_ log: String) throws -> String {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      if let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) { return String(text[range]) }
      usleep(20_000)
    }
    throw BenchError("the load server did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
  }

  /// Nanoseconds one client takes to insert `count` batches, one autocommitted INSERT each,
  /// prepared once (as the server's own statements are).
  static func insertDirectly(_ client: PostgresClient, household: Int64, device: Int64, payload: Data, count: Int) async throws -> UInt64 {
    let start = nanoseconds()
    for index in 1...count {
      let sequence = Int64(1_000_000_000 + index)
      let insert = DirectInsert(household: household, sequence: sequence, batchID: "baseline:\(index)", device: device, payload: payload)
      for try await _ in try await client.execute(insert) {}
    }
    return nanoseconds() - start
  }

  /// The baseline's statement: one batch row, nothing checked.
  struct DirectInsert: PostgresPreparedStatement {
    static let sql = """
      INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
      VALUES ($1, $2, $3, $4, $2, 'baseline', 3, $5, now())
      """
    typealias Row = Void

    let household: Int64, sequence: Int64, batchID: String, device: Int64, payload: Data

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings()
      bindings.append(household)
      bindings.append(sequence)
      bindings.append(batchID)
      bindings.append(device)
      try bindings.append(payload)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
  }

  /// The user and system CPU time a process has used, in seconds (`/proc/PID/stat`).
  static func cpuSeconds(of pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return .nan }
    // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// This process's user and system CPU time, in seconds.
  static func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// A child process's peak resident set (VmHWM), in MiB.
  static func peakResidentMiB(of pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return .nan }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      if let kib = line.split(separator: " ").compactMap({ Double($0) }).first { return kib / 1024 }
    }
    return .nan
  }

  /// `forager-bench --serve-load DATABASE_URL`: the server, on a free port of 127.0.0.1,
  /// wired as `forager-server serve` wires it (credential changes and the log's
  /// announcements heard from PostgreSQL). `live` (`--serve-live`, the `live` scenario):
  /// room for a thousand subscriptions, and a token rate limit the bench's back-to-back
  /// changes do not reach (a person makes far fewer).
  static func serve(_ url: String, live: Bool = false, limits: FairnessScenario.Limits? = nil) throws {
    try blocking {
      var logger = Logger(label: "load-server")
      logger.logLevel = .error
      let location = try PostgresLocation(url: url)
      let client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
      let storage = PostgresHouseholdStorage(client: client, logger: logger)
      var configuration = ServerConfiguration()
      if live {
        configuration.maxConnections = 4_096
        configuration.liveSubscribers = 3_000
        configuration.tokenRequestsPerSecond = 10_000
        configuration.tokenBurst = 10_000
      }
      if let limits { limits.apply(to: &configuration) }
      let service = SyncService(storage: storage, configuration: configuration, logger: logger)
      var app = service.application(host: "127.0.0.1", port: 0) { port in
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(port)\n".utf8))
      }
      // Token lookups are cached while credential changes are heard (Docs/SERVER.md); the
      // log's announcements reach this process's live subscribers from any instance.
      let watcher = CredentialWatcher(storage: storage, announcer: service.announcer)
      app.addServices(client, watcher)
      app.beforeServerStarts { watcher.clientRuns() }
      try await app.runService()
    }
  }
}

/// One simulated device: its token, replica and the batch it pushes again and again (each
/// time with a new id and its next device sequence). One task runs it at a time.
final class LoadDevice: @unchecked Sendable {
  let token: String
  let replica: String
  /// Its household's number (0 ..< server.households).
  let household: Int
  let changes: Int
  /// Where in the pause its paced syncs start (0 ..< 1).
  let stagger: Double
  /// The ids of the records its batches carry.
  let ids: IDSource
  private var sequence: Int64 = 0
  private var cursor: String?

  init(token: String, replica: String, household: Int, changes: Int, stagger: Double, ids: IDSource) {
    self.token = token
    self.replica = replica
    self.household = household
    self.changes = changes
    self.stagger = stagger
    self.ids = ids
  }

  struct Outcome: Sendable {
    var household = 0
    var pushLatencies: [Double] = []
    /// The pulls' latencies (a pull follows each push).
    var pullLatencies: [Double] = []
    var pulls = 0
    var failures = 0
    /// Requests refused with 429 (past the token's rate limit): counted apart from failures.
    var limited = 0
    /// What the first failed request was answered, for the report.
    var firstFailure: String?
  }

  /// A batch the server accepts: new categories, as a device that adds aisles pushes them,
  /// stamped now (the server refuses dates and stamps far from its clock).
  func batch(sequence: Int64) -> Data {
    let now = Date()
    let stamp = Stamp(time: Int64(now.timeIntervalSince1970 * 1_000), counter: Int32(truncatingIfNeeded: sequence), replica: replica)
    let records = (0..<changes).map { index in
      let name = "Aisle \(replica) \(sequence) \(index)"
      return RecordChange(
        kind: .category, id: ids.next(), createdAt: now, updatedAt: now, ownerID: "owner", sharingScope: .private,
        fields: [
          RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
          "displayName": StampedValue(value: .text(name), stamp: stamp),
          "normalizedName": StampedValue(value: .text(SemanticKey.normalizedName(name)), stamp: stamp),
        ])
    }
    return ChangeBatchCoding.encode(
      ChangeBatch(id: "\(replica):\(sequence)", replica: replica, schemaVersion: ChangeBatchCoding.schemaVersion, changes: records))
  }

  /// Starts the device's pulls after `sequence`, as a device that has pulled the log that
  /// far (call it before the device runs).
  func startPulls(after sequence: Int64) {
    cursor = PullCursor(after: sequence).encoded
  }

  func run(_ http: HTTPClient, base: String, until deadline: UInt64, pause: UInt64) async throws -> Outcome {
    var outcome = Outcome(household: household)
    while nanoseconds() < deadline {
      if pause > 0 {
        // Starts spread over the first pause, so paced devices do not sync in step.
        let wait = outcome.pushLatencies.isEmpty ? UInt64(Double(pause) * stagger) : pause
        try await Task.sleep(nanoseconds: wait)
        guard nanoseconds() < deadline else { break }
      }
      // The next batch of the device's sequence; a refused one (429) is pushed again, as a
      // device does: skipping its number would make every later push a sequence gap.
      let next = sequence + 1
      var push = HTTPClientRequest(url: base + Wire.Path.batches)
      push.method = .POST
      push.headers.add(name: "Authorization", value: "Bearer \(token)")
      push.headers.add(name: "Content-Type", value: Wire.batchMediaType)
      push.headers.add(name: Wire.deviceSequenceHeader, value: String(next))
      push.body = .bytes(ByteBuffer(bytes: batch(sequence: next)))
      let start = nanoseconds()
      let pushed = try await http.execute(push, timeout: .seconds(30))
      let answer = try await pushed.body.collect(upTo: 1 << 20)
      if pushed.status == .created {
        sequence = next
        outcome.pushLatencies.append(Double(nanoseconds() - start) / 1e9)
      } else if pushed.status == .tooManyRequests {
        outcome.limited += 1
      } else {
        outcome.failures += 1
        if outcome.firstFailure == nil { outcome.firstFailure = "push: \(pushed.status.code) \(String(buffer: answer).prefix(300))" }
      }

      var pull = HTTPClientRequest(
        url: base + Wire.Path.batches + "?\(Wire.Query.limit)=100" + (cursor.map { "&\(Wire.Query.cursor)=\($0)" } ?? ""))
      pull.headers.add(name: "Authorization", value: "Bearer \(token)")
      let pullStart = nanoseconds()
      let pulled = try await http.execute(pull, timeout: .seconds(30))
      let body = try await pulled.body.collect(upTo: 64 << 20)
      if pulled.status == .ok, let page = try? WireCoding.decoder().decode(PullPage.self, from: Data(body.readableBytesView)) {
        cursor = page.cursor
        outcome.pulls += 1
        outcome.pullLatencies.append(Double(nanoseconds() - pullStart) / 1e9)
      } else if pulled.status == .tooManyRequests {
        outcome.limited += 1
      } else {
        // A failed pull is a failed request like a failed push: it fails the run (a failing
        // pull is quick, and counting it as a sync would raise the push rate).
        outcome.failures += 1
        if outcome.firstFailure == nil {
          let what = pulled.status == .ok ? "an undecodable page" : "\(pulled.status.code) \(String(buffer: body).prefix(300))"
          outcome.firstFailure = "pull: \(what)"
        }
      }
    }
    return outcome
  }
}

extension ScenarioResult {
  /// A skipped result naming why, when PostgreSQL cannot be started here; nil when it can.
  /// (`--smoke` counts a skip as a failure.)
  static func skippedWithoutPostgres(_ context: Context) -> ScenarioResult? {
    guard let reason = TemporaryPostgres.unavailableReason else { return nil }
    var result = ScenarioResult(context)
    result.verdict = "skipped"
    result.note = reason
    return result
  }
}
