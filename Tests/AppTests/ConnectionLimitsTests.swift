import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A `forager-server` process closes connections that idle, never finish their head or
/// stall, and holds no more connections than it is told: slow clients cannot hold it.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct ConnectionLimitsTests {
  /// A TCP connection to 127.0.0.1:`port`.
  final class Connection: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      guard connected == 0 else { throw TemporaryPostgres.Failure("cannot connect to port \(port)") }
    }

    func send(_ text: String) {
      _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Whether the server closed the connection within `seconds` (reading and dropping
    /// whatever it sent before).
    func isClosed(within seconds: Double) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      var buffer = [UInt8](repeating: 0, count: 4_096)
      while Date() < deadline {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) > 0 else { continue }
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { return true }
      }
      return false
    }

    /// What the server sent within `seconds`, and whether it closed the connection (or ended
    /// its side of it) by then; returns as soon as it did.
    func receive(within seconds: Double) -> (text: String, closed: Bool) {
      let deadline = Date().addingTimeInterval(seconds)
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4_096)
      while Date() < deadline {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) > 0 else { continue }
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
        received += buffer[0..<count]
      }
      return (String(decoding: received, as: UTF8.self), false)
    }

    deinit { close(fd) }
  }

  static func port(_ url: String) -> Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

  @Test func idleHalfSentAndStalledConnectionsAreClosed() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone"])
    let token = try String(contentsOf: directory.appendingPathComponent("phone.token"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server", arguments: ["--idle-timeout", "1", "--body-timeout", "2"])
    defer { server.stop() }
    let port = Self.port(server.url)
    let silent = try Connection(port: port)
    let halfHead = try Connection(port: port)
    halfHead.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    let keptAlive = try Connection(port: port)
    keptAlive.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let stalledBody = try Connection(port: port)
    stalledBody.send("PUT /v1/devices/self HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"repl")
    let start = Date()
    for (name, connection) in [("silent", silent), ("half a head", halfHead), ("kept alive", keptAlive), ("stalled", stalledBody)] {
      #expect(connection.isClosed(within: 20), "the \(name) connection is still open")
    }
    #expect(Date().timeIntervalSince(start) < 30)
    // A body trickled a byte at a time keeps the idle timer from firing, not the body's:
    // 408 after 2 s, and the connection closed.
    let trickle = try Connection(port: port)
    trickle.send(
      "PUT /v1/devices/self HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
    var closed = false
    for _ in 0..<12 where !closed {
      trickle.send("x")
      closed = trickle.isClosed(within: 0.5)
    }
    #expect(closed, "a trickled body was read for more than 6 s")
  }

  /// A request refused before its body is read — here an unknown token on a push announcing
  /// 10 MB — is answered with `Connection: close` and the connection is closed: the client
  /// trickling the rest of the body, a byte every 0.2 s from a thread of its own, cannot hold
  /// it open (it could for as long as it went on before: the idle timer never fired).
  @Test func aBodyTrickledAfterAnEarlyRefusalIsCutOff() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server", arguments: ["--idle-timeout", "5", "--body-timeout", "60"])
    defer { server.stop() }
    let connection = try Connection(port: Self.port(server.url))
    connection.send(
      "POST /v1/batches HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer fgr1_\(String(repeating: "A", count: 43))\r\n"
        + "Content-Type: application/vnd.forager.batch\r\nForager-Device-Sequence: 1\r\nContent-Length: 10000000\r\n\r\nxyz")
    let stop = Stop()
    let trickler = Thread {
      for _ in 0..<300 where !stop.isSet {
        connection.send("x")
        usleep(200_000)
      }
    }
    trickler.start()
    defer { stop.set() }
    let answer = connection.receive(within: 60)
    #expect(answer.text.hasPrefix("HTTP/1.1 401"), "\(answer.text)")
    #expect(answer.text.lowercased().contains("connection: close"), "\(answer.text)")
    #expect(answer.closed, "the connection was still open after a minute of trickling")
  }

  /// Requests from one address are limited before their token is read: bad tokens past
  /// `--address-rate-burst` are `429 rate-limited` with `Retry-After`, health is not limited.
  @Test func requestsOfOneAddressAreLimitedWhateverTheirToken() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server", arguments: ["--address-rate-limit", "1", "--address-rate-burst", "3"])
    defer { server.stop() }
    let forged = "fgr1_" + String(repeating: "B", count: 43)
    // One more request a second is allowed: a slow machine may see a few more 401s first.
    var answers: [ServerAvailabilityTests.Answer] = []
    while answers.count < 30, answers.last?.status != 429 {
      answers.append(try ServerAvailabilityTests.get(server.url + "/v1/session", token: forged, maxTime: 60))
    }
    #expect(answers.prefix(3).map(\.status) == [401, 401, 401])
    let limited = try #require(answers.last)
    #expect(limited.status == 429 && limited.body.contains("rate-limited"), "\(answers.map(\.status))")
    #expect(limited.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true, "\(limited.headers)")
    #expect(try ServerAvailabilityTests.get(server.url + "/v1/health", maxTime: 60).status == 200)
  }

  @Test func theServerHoldsNoMoreConnectionsThanItsCap() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server",
      arguments: ["--max-connections", "4", "--max-connections-per-address", "4", "--idle-timeout", "30"])
    defer { server.stop() }
    var held = try (0..<4).map { _ in try Connection(port: Self.port(server.url)) }
    usleep(300_000)
    let refused = try ServerAvailabilityTests.get(server.url + "/v1/health", maxTime: 1.5)
    #expect(refused.status == 0, "a fifth connection was served: \(refused)")
    held.removeAll()
    let served = try ServerAvailabilityTests.get(server.url + "/v1/health", maxTime: 10)
    #expect(served.status == 200, "\(served)")
  }
}

/// A flag one thread sets and another reads.
final class Stop: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
