import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServerTestSupport
import SyncServer
import SyncWire
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Credentials are checked where they matter: a live stream ends soon after its token's
/// revocation or expiry, or its household's deletion (with `closing` saying why: the check
/// runs every 250 ms, and the bound leaves room for a machine busy with other tests),
/// and a push whose token is revoked while its body arrives stores nothing.
@Suite(.timeLimit(.minutes(1))) struct LiveCredentialTests {
  /// How soon a stream must end: well past the check's 250 ms interval and a lookup on a
  /// loaded machine, and far below a stream that is never ended (it stays open).
  static let bound = 5.0

  /// Opens a live stream of `token`, runs `act` once it is subscribed, and returns the
  /// stream's text and how long after `act` it ended.
  static func streamEnding(
    _ fixture: ServerFixture, token: String, after act: @escaping @Sendable () async throws -> Void
  ) async throws -> (text: String, seconds: Double) {
    try await fixture.test { client in
      try await withThrowingTaskGroup(of: (String, Double).self) { group in
        let acted = Clock()
        group.addTask {
          let response = try await client.get(Wire.Path.live, token: token)
          return (response.text, acted.sinceMarked)
        }
        for _ in 0..<500 where fixture.service.announcer.count == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(fixture.service.announcer.count == 1)
        acted.mark()
        try await act()
        let ended = try #require(try await group.next())
        return ended
      }
    }
  }

  /// The time since ``mark()``.
  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var marked = ContinuousClock.now
    func mark() { lock.withLock { marked = .now } }
    var sinceMarked: Double {
      let elapsed = lock.withLock { ContinuousClock.now - marked }.components
      return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
  }

  @Test func aStreamEndsSoonAfterItsTokensRevocation() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let (text, seconds) = try await Self.streamEnding(fixture, token: phone) { () async throws -> Void in
      #expect(try await fixture.admin.revokeTokens(household: "Smith", device: "phone") == 1)
    }
    #expect(text.hasPrefix("event: hello"))
    #expect(text.contains("event: closing\ndata: {\"reason\":\"token-revoked\"}"), "\(text)")
    #expect(seconds < Self.bound, "the stream ended \(seconds) s after the revocation")
    #expect(fixture.service.announcer.count == 0)
  }

  @Test func aStreamEndsSoonAfterItsHouseholdsDeletion() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let (text, seconds) = try await Self.streamEnding(fixture, token: phone) {
      _ = try await fixture.admin.deleteHousehold("Smith")
    }
    #expect(text.contains("event: closing\ndata: {\"reason\":\"token-unknown\"}"), "\(text)")
    #expect(seconds < Self.bound, "the stream ended \(seconds) s after the deletion")
  }

  @Test func aStreamEndsSoonAfterItsTokensExpiry() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()  // a year from the test clock's now
    let (text, seconds) = try await Self.streamEnding(fixture, token: phone) {
      fixture.clock.advance(by: 366 * 86_400)
    }
    #expect(text.contains("event: closing\ndata: {\"reason\":\"token-expired\"}"), "\(text)")
    #expect(seconds < Self.bound, "the stream ended \(seconds) s after the expiry")
  }

  @Test func anotherTokensStreamGoesOn() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let laptop = try await fixture.token(device: "laptop")
    let (text, _) = try await Self.streamEnding(fixture, token: phone) { () async throws -> Void in
      // The laptop's revocation is a credential change: the phone's stream is looked at and stays.
      #expect(try await fixture.admin.revokeTokens(household: "Smith", device: "laptop") == 1)
      try await Task.sleep(for: .milliseconds(600))
      #expect(fixture.service.announcer.count == 1)
      fixture.service.announcer.closeAll()
    }
    #expect(text.contains("event: closing\ndata: {\"reason\":\"shutdown\"}"), "\(text)")
    _ = laptop
  }
}

/// Storage that tells when a token was looked up.
final class LookupSignalingStorage: ForwardingStorage, @unchecked Sendable {
  let inner = MemoryHouseholdStorage()
  private let (lookups, lookedUp) = AsyncStream.makeStream(of: Void.self)

  /// Returns once a token was looked up.
  func waitForALookup() async {
    for await _ in lookups { return }
  }

  func credential(forTokenHash hash: Data) async throws -> Credential? {
    defer { lookedUp.yield() }
    return await inner.credential(forTokenHash: hash)
  }
}

@Suite(.timeLimit(.minutes(1))) struct PushRecheckTests {
  /// A TCP connection to 127.0.0.1:`port` that sends a request in pieces.
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
      try #require(connected == 0, "cannot connect to port \(port)")
    }

    func send(_ data: Data) {
      _ = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What the server sent until it closed the connection, or `seconds` passed, read on a
    /// thread of its own (a blocking read would hold one of the few threads the server's and
    /// the tests' tasks share).
    func receive(within seconds: Double) async -> String {
      await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: self.blockingReceive(within: seconds)) }.start()
      }
    }

    private func blockingReceive(within seconds: Double) -> String {
      let deadline = Date().addingTimeInterval(seconds)
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4_096)
      while Date() < deadline {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) > 0 else { continue }
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received += buffer[0..<count]
      }
      return String(decoding: received, as: UTF8.self)
    }

    deinit { close(fd) }
  }

  /// Sends a push's head and the first bytes of its body, runs `meanwhile`, sends the rest,
  /// and returns the answer.
  static func slowPush(
    _ fixture: ServerFixture, storage: LookupSignalingStorage, token: String, meanwhile: @escaping @Sendable () async throws -> Void
  )
    async throws -> String
  {
    let body = batchBytes(id: "a:1", replica: "a")
    let app = Application(router: fixture.service.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in
      let connection = try Connection(port: try #require(client.port))
      let head =
        "POST \(Wire.Path.batches) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        + "Content-Type: \(Wire.batchMediaType)\r\n\(Wire.deviceSequenceHeader): 1\r\nContent-Length: \(body.count)\r\n"
        + "Connection: close\r\n\r\n"
      connection.send(Data(head.utf8) + body.prefix(8))
      await storage.waitForALookup()
      try await meanwhile()
      connection.send(Data(body.dropFirst(8)))
      return await connection.receive(within: 10)
    }
  }

  @Test func aPushWhoseTokenIsRevokedWhileItsBodyArrivesIsRefusedAndStoresNothing() async throws {
    let storage = LookupSignalingStorage()
    let fixture = ServerFixture(storage: storage)
    let phone = try await fixture.token()
    let answer = try await Self.slowPush(fixture, storage: storage, token: phone) { () async throws -> Void in
      #expect(try await fixture.admin.revokeTokens(household: "Smith", device: "phone") == 1)
    }
    #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
    #expect(answer.contains("\"code\":\"token-revoked\""), "\(answer)")
    let household = try #require(await fixture.storage.household(named: "Smith"))
    #expect(await fixture.storage.latestSequence(of: household.id) == 0)
  }

  @Test func aPushWhoseHouseholdIsDeletedWhileItsBodyArrivesIsRefused() async throws {
    let storage = LookupSignalingStorage()
    let fixture = ServerFixture(storage: storage)
    let phone = try await fixture.token()
    let answer = try await Self.slowPush(fixture, storage: storage, token: phone) {
      _ = try await fixture.admin.deleteHousehold("Smith")
    }
    #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
    #expect(answer.contains("\"code\":\"token-unknown\""), "\(answer)")
  }

  @Test func aSlowPushWhoseTokenHoldsIsStored() async throws {
    let storage = LookupSignalingStorage()
    let fixture = ServerFixture(storage: storage)
    let phone = try await fixture.token()
    let answer = try await Self.slowPush(fixture, storage: storage, token: phone) {}
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
  }
}
