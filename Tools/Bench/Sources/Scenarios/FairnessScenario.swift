import AsyncHTTPClient
import BenchBaselines
import Foundation
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

#if canImport(Glibc)
  import Glibc
#endif

/// `forager-server` against the two liveness attacks of one client on its CPU and its
/// connections, each from a loopback address of its own (127.0.0.2, …: another client
/// address to the server), on a server process with the fair limits and, for comparison, on
/// one without them:
///
/// - Flood: one household's devices push 4 MiB batches flat out — each checked in full and
///   refused at its last change, the most door CPU a household can cause per byte, with no
///   storage cost — while other households sync at their pace: their requests' latency.
/// - Top-up: one address keeps as many connections open as the server takes, opening a new
///   one whenever one is closed, while another address probes `/v1/health` on a new
///   connection every 20 ms: how many probes time out (2 s).
enum FairnessScenario {
  static let scenario = Scenario(
    id: "fair", title: "sync server: one household flooding the checks, one address topping connections up",
    target: "others' request p99 < 100 ms while one household pushes 4 MiB batches flat out; no probe times out during a top-up",
    parameters: ["fair.flooders", "fair.households", "fair.seconds", "fair.pace.ms", "fair.batch.bytes"]
  ) { context in
    if let skipped = ScenarioResult.skippedWithoutPostgres(context) { return skipped }
    return try ServerLoadScenario.blocking { try await run(context) }
  }

  /// The servers compared: `fair`, `forager-server serve`'s limits on a small connection cap;
  /// `open`, the same without per-household turns at the checks or a share of connections per
  /// address.
  enum Limits: String, Sendable, CaseIterable {
    case fair, open

    /// The connection cap of both: small enough that the attack opens past it in a moment.
    static let maxConnections = 64

    func apply(to configuration: inout ServerConfiguration) {
      configuration.maxConnections = Self.maxConnections
      configuration.addressRequestsPerSecond = ServerConfiguration.defaultAddressRequestsPerSecond
      switch self {
      case .fair:
        configuration.maxConnectionsPerAddress = ServerConfiguration.defaultConnectionsPerAddress(maxConnections: Self.maxConnections)
      case .open:
        configuration.maxConnectionsPerAddress = nil
        configuration.checkSlots = 64
        configuration.checksPerHousehold = 64
        configuration.checksPerAddress = 64
        configuration.checkQueue = 1_000
      }
    }
  }

  /// What one server's phases measured.
  struct Outcome {
    var quiet: Stats
    var flood: Stats
    var floodChecks: Int
    var floodAnswers: [UInt: Int]
    var probes: Stats
    var probeTimeouts: Int
    var topUpsRefused: Int
  }

  static func run(_ context: Context) async throws -> ScenarioResult {
    let sizes = context.sizes
    let flooderCount = sizes["fair.flooders"], householdCount = sizes["fair.households"]
    let seconds = Double(sizes["fair.seconds"]), pace = UInt64(sizes["fair.pace.ms"]) * 1_000_000
    let database = try await BenchDatabase.start(context, name: "fair")
    defer { database.stop() }
    let (url, admin) = (database.url, database.admin)
    _ = try await admin.addHousehold("flood")
    var flooders: [String] = []
    for index in 0..<flooderCount { flooders.append(try await admin.issueToken(household: "flood", device: "f\(index)").token.secret) }
    var others: [LoadDevice] = []
    for index in 0..<householdCount {
      _ = try await admin.addHousehold("other \(index)")
      let issued = try await admin.issueToken(household: "other \(index)", device: "phone")
      others.append(
        LoadDevice(
          token: issued.token.secret, replica: "other-\(index)", household: index, changes: 20,
          stagger: Double(index) / Double(householdCount), ids: .seeded(UInt64(index))))
    }
    let hostile = costlyBatch(bytes: sizes["fair.batch.bytes"])

    var outcomes: [Limits: Outcome] = [:]
    for limits in Limits.allCases {
      let log = context.path("server-\(limits).log")
      let server = try Spawn.start(
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, ["--serve-load", url, "--serve-limits", limits.rawValue],
        output: log)
      defer {
        kill(server, SIGTERM)
        _ = try? Spawn.wait(server, program: "forager-bench --serve-load", timeout: 10)
      }
      let base = try ServerLoadScenario.waitForPort(log)
      let port = Int(base.split(separator: ":").last ?? "") ?? 0
      outcomes[limits] = try await measure(
        base: base, port: port, others: others, flooders: flooders, hostile: hostile, seconds: seconds, pace: pace)
    }

    var result = ScenarioResult(context)
    guard let fair = outcomes[.fair], let open = outcomes[.open] else { throw BenchError("a server was not measured") }
    result.forager = fair.flood
    result.baseline = fair.quiet
    result.ratio = fair.flood.median / fair.quiet.median
    var figures: [String: Double] = ["flood batch bytes count": Double(hostile.count)]
    for (limits, outcome) in [("", fair), ("without the limits: ", open)] {
      figures["\(limits)others' request p50, quiet"] = outcome.quiet.median
      figures["\(limits)others' request p99, quiet"] = outcome.quiet.p99 ?? .nan
      figures["\(limits)others' request p50, one household flooding"] = outcome.flood.median
      figures["\(limits)others' request p99, one household flooding"] = outcome.flood.p99 ?? .nan
      figures["\(limits)others' request max, one household flooding"] = outcome.flood.max
      figures["\(limits)flood batches checked/s"] = Double(outcome.floodChecks) / seconds
      figures["\(limits)flood answered 429 or 503 count"] = Double(
        outcome.floodAnswers.filter { $0.key == 429 || $0.key == 503 }.values.reduce(0, +))
      figures["\(limits)probes count"] = Double(outcome.probes.count + outcome.probeTimeouts)
      figures["\(limits)probes timed out count"] = Double(outcome.probeTimeouts)
      figures["\(limits)probe p99, top-up attack"] = outcome.probes.p99 ?? .nan
      figures["\(limits)probe max, top-up attack"] = outcome.probes.max
      figures["\(limits)attack connections closed count"] = Double(outcome.topUpsRefused)
    }
    result.figures = figures
    if let p99 = fair.flood.p99 {
      result.verdict = p99 < 0.1 && fair.probeTimeouts == 0 ? "met" : "missed"
    } else {
      result.verdict = fair.probeTimeouts == 0 ? "too few samples" : "missed"
    }
    result.note =
      "ratio = others' median request (a push of 20 changes or a pull) while one household floods ÷ quiet; "
      + "\(flooderCount) flooding devices, \(householdCount) other households syncing every \(sizes["fair.pace.ms"]) ms, "
      + "\(Int(seconds)) s per phase; --max-connections \(Limits.maxConnections), "
      + "\(ServerConfiguration.defaultConnectionsPerAddress(maxConnections: Limits.maxConnections)) per address; \(context.postgresNote)"
    return result
  }

  /// One server: the others alone, the others while the flood runs, then the top-up attack.
  static func measure(
    base: String, port: Int, others: [LoadDevice], flooders: [String], hostile: Data, seconds: Double, pace: UInt64
  ) async throws -> Outcome {
    var othersConfiguration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5)))
    othersConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: others.count)
    othersConfiguration.localAddress = "127.0.0.3"
    let othersHTTP = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: othersConfiguration)
    var floodConfiguration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5)))
    floodConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: flooders.count)
    floodConfiguration.localAddress = "127.0.0.2"
    let floodHTTP = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: floodConfiguration)
    let measured: Result<Outcome, any Error>
    do {
      measured = .success(
        try await measure(
          base: base, port: port, others: others, flooders: flooders, hostile: hostile, seconds: seconds, pace: pace,
          othersHTTP: othersHTTP, floodHTTP: floodHTTP))
    } catch {
      measured = .failure(error)
    }
    try await othersHTTP.shutdown()
    try await floodHTTP.shutdown()
    return try measured.get()
  }

  static func measure(
    base: String, port: Int, others: [LoadDevice], flooders: [String], hostile: Data, seconds: Double, pace: UInt64,
    othersHTTP: HTTPClient, floodHTTP: HTTPClient
  ) async throws -> Outcome {
    let quiet = try await ServerLoadScenario.phase(others, othersHTTP, base: base, seconds: seconds) { _ in pace }
    let deadline = nanoseconds() + UInt64(seconds * 1e9)
    async let floodAnswers = withThrowingTaskGroup(of: [UInt: Int].self) { group in
      for token in flooders {
        group.addTask { try await flood(floodHTTP, base: base, token: token, batch: hostile, until: deadline) }
      }
      return try await group.reduce(into: [:]) { all, answers in all.merge(answers, uniquingKeysWith: +) }
    }
    let flooded = try await ServerLoadScenario.phase(others, othersHTTP, base: base, seconds: seconds) { _ in pace }
    let answers = try await floodAnswers
    for outcome in quiet.outcomes + flooded.outcomes where outcome.failures > 0 {
      throw BenchError("another household's request failed: \(outcome.firstFailure ?? "")")
    }
    let topUp = try await Task.detached { try topUpAttack(port: port, seconds: seconds) }.value
    return Outcome(
      quiet: Stats(quiet.outcomes.flatMap { $0.pushLatencies + $0.pullLatencies }),
      flood: Stats(flooded.outcomes.flatMap { $0.pushLatencies + $0.pullLatencies }), floodChecks: answers[422, default: 0],
      floodAnswers: answers, probes: Stats(topUp.latencies), probeTimeouts: topUp.timeouts, topUpsRefused: topUp.closed)
  }

  /// One flooding device: pushes `batch` again and again until `deadline`; the answers by status.
  static func flood(_ http: HTTPClient, base: String, token: String, batch: Data, until deadline: UInt64) async throws -> [UInt: Int] {
    var answers: [UInt: Int] = [:]
    let body = ByteBuffer(bytes: batch)
    while nanoseconds() < deadline {
      var push = HTTPClientRequest(url: base + Wire.Path.batches)
      push.method = .POST
      push.headers.add(name: "Authorization", value: "Bearer \(token)")
      push.headers.add(name: "Content-Type", value: Wire.batchMediaType)
      push.headers.add(name: Wire.deviceSequenceHeader, value: "1")
      push.body = .bytes(body)
      let response = try await http.execute(push, timeout: .seconds(60))
      _ = try await response.body.collect(upTo: 1 << 20)
      answers[response.status.code, default: 0] += 1
      // A refused push waits as its Retry-After says, as a device does.
      if let retry = response.headers.first(name: "Retry-After").flatMap(UInt64.init) {
        try await Task.sleep(nanoseconds: min(retry, 2) * 1_000_000_000)
      }
    }
    return answers
  }

  /// A batch of about `bytes` bytes — as many changes as a batch may hold, with names that
  /// fill it — every change of which keeps the rules but the last, whose stamp is another
  /// replica's: the server decodes and checks it all, then refuses it.
  static func costlyBatch(bytes: Int) -> Data {
    let now = Date()
    let count = ChangeRules.maximumChanges
    func encode(nameLength: Int) -> Data {
      let ids = IDSource.seeded(7)
      let stamp = Stamp(time: Int64(now.timeIntervalSince1970 * 1_000), counter: 0, replica: "flood")
      // About 420 bytes a change: two names of about 170 characters and their stamps.
      var changes = (0..<min(count, max(2, bytes / 420))).map { index in
        let head = "Aisle \(index) "
        let name = head + String(repeating: "x", count: max(0, nameLength - head.count))
        return RecordChange(
          kind: .category, id: ids.next(), createdAt: now, updatedAt: now, ownerID: "owner", sharingScope: .private,
          fields: [
            RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
            "displayName": StampedValue(value: .text(name), stamp: stamp),
            "normalizedName": StampedValue(value: .text(SemanticKey.normalizedName(name)), stamp: stamp),
          ])
      }
      if let last = changes.popLast() {
        var fields = last.fields
        fields[RecordChange.existsField] = StampedValue(value: .bool(true), stamp: Stamp(time: stamp.time, counter: 0, replica: "other"))
        changes.append(
          RecordChange(
            kind: last.kind, id: last.id, createdAt: now, updatedAt: now, ownerID: last.ownerID, sharingScope: last.sharingScope,
            fields: fields))
      }
      return ChangeBatchCoding.encode(
        ChangeBatch(id: "flood:1", replica: "flood", schemaVersion: ChangeBatchCoding.schemaVersion, changes: changes))
    }
    var nameLength = 190
    var batch = encode(nameLength: nameLength)
    while batch.count > bytes, nameLength > 10 {
      nameLength -= max(1, nameLength * (batch.count - bytes) / batch.count + 1)
      batch = encode(nameLength: max(10, nameLength))
    }
    return batch
  }

  /// Keeps `Limits.maxConnections` + 16 silent connections open from 127.0.0.4 (opening a
  /// new one whenever the server closes one) for `seconds`, while probing `/v1/health` from
  /// 127.0.0.5 on a new connection every 20 ms, each given 2 s.
  static func topUpAttack(port: Int, seconds: Double) throws -> (latencies: [Double], timeouts: Int, closed: Int) {
    let stop = DispatchSemaphore(value: 0)
    let attackDone = DispatchSemaphore(value: 0)
    let closedBox = ResultCount()
    Thread {
      var held: [RawConnection] = (0..<(Limits.maxConnections + 16)).compactMap { _ in try? RawConnection(from: "127.0.0.4", port: port) }
      while stop.wait(timeout: .now()) == .timedOut {
        var reopen: [Int] = []
        var pollers = held.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        if poll(&pollers, nfds_t(pollers.count), 10) > 0 {
          for (index, poller) in pollers.enumerated() where poller.revents != 0 && held[index].isClosed() { reopen.append(index) }
        }
        for index in reopen {
          closedBox.add()
          if let connection = try? RawConnection(from: "127.0.0.4", port: port) { held[index] = connection }
        }
        while held.count < Limits.maxConnections + 16, let connection = try? RawConnection(from: "127.0.0.4", port: port) {
          held.append(connection)
        }
      }
      held.removeAll()
      attackDone.signal()
    }.start()
    usleep(500_000)
    var latencies: [Double] = []
    var timeouts = 0
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      let start = nanoseconds()
      if let connection = try? RawConnection(from: "127.0.0.5", port: port),
        connection.request("GET \(Wire.Path.health) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", within: 2)?.hasPrefix(
          "HTTP/1.1 200") == true
      {
        latencies.append(Double(nanoseconds() - start) / 1e9)
      } else {
        timeouts += 1
      }
      usleep(20_000)
    }
    stop.signal()
    attackDone.wait()
    return (latencies, timeouts, closedBox.value)
  }

  /// A count several threads add to.
  final class ResultCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }
}

/// A blocking TCP connection to 127.0.0.1 from a given loopback source address.
final class RawConnection {
  let fd: Int32

  init(from source: String, port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchError("socket: errno \(errno)") }
    // A listen backlog that is full makes connect wait: give it a second at most.
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = in_port_t(UInt16(port).bigEndian)
    remote.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
    let connected =
      bound == 0 && withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } } == 0
    guard connected else {
      close(fd)
      throw BenchError("cannot connect from \(source) to port \(port): errno \(errno)")
    }
  }

  deinit { close(fd) }

  /// Whether the server closed the connection (reading and dropping what it sent).
  func isClosed() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 1_024)
    return recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == 0
  }

  /// Sends `text` and reads the answer until the server closes the connection; nil when
  /// that takes longer than `seconds`.
  func request(_ text: String, within seconds: Double) -> String? {
    _ = text.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    let deadline = Date().addingTimeInterval(seconds)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while Date() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 10) > 0 else { continue }
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return String(decoding: received, as: UTF8.self) }
      received += buffer[0..<count]
    }
    return nil
  }
}
