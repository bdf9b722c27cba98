import Foundation
import HTTPTypes
import HummingbirdTesting
import ServerTestSupport
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// `/v1/ready` costs the database at most one check a second per process, however often it
/// is asked: requests within a second of a check are answered with its outcome, requests
/// that arrive while a check runs wait for it, and readiness counts against the client
/// address's rate like any route but liveness.
@Suite(.timeLimit(.minutes(1))) struct ReadinessTests {
  /// Storage that counts its checks, and holds them at `gate` once it is given one.
  final class CheckCountingStorage: ForwardingStorage, @unchecked Sendable {
    let inner = MemoryHouseholdStorage()
    private let lock = NSLock()
    private var checks = 0
    private var heldAt: TestGate?
    private let (begun, began) = AsyncStream.makeStream(of: Void.self)

    var checksMade: Int { lock.withLock { checks } }

    /// Holds the next checks until the gate opens.
    func hold(at gate: TestGate) { lock.withLock { heldAt = gate } }

    /// Returns once a check has begun.
    func waitUntilACheckBegan() async {
      for await _ in begun { return }
    }

    func checkReachable() async throws {
      let gate = lock.withLock { () -> TestGate? in
        checks += 1
        return heldAt
      }
      began.yield()
      await gate?.wait()
    }
  }

  @Test func readinessChecksTheStorageAtMostOnceASecond() async throws {
    let storage = CheckCountingStorage()
    let fixture = ServerFixture(storage: storage)
    try await fixture.test { (client) async throws -> Void in
      for _ in 0..<10 { #expect(try await client.get(Wire.Path.ready, token: nil).status == .ok) }
      #expect(storage.checksMade == 1)
      fixture.clock.advance(by: 0.999)
      #expect(try await client.get(Wire.Path.ready, token: nil).status == .ok)
      #expect(storage.checksMade == 1)
      fixture.clock.advance(by: 0.001)
      for _ in 0..<10 { #expect(try await client.get(Wire.Path.ready, token: nil).status == .ok) }
      #expect(storage.checksMade == 2)
    }
  }

  @Test func readinessRequestsThatArriveDuringACheckShareIt() async throws {
    let storage = CheckCountingStorage()
    let gate = TestGate()
    storage.hold(at: gate)
    let fixture = ServerFixture(storage: storage)
    try await fixture.test { (client) async throws -> Void in
      try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
        for _ in 0..<8 { group.addTask { try await client.get(Wire.Path.ready, token: nil).status } }
        await storage.waitUntilACheckBegan()
        // Let the other requests reach the route while the check is held.
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        for try await status in group { #expect(status == .ok) }
      }
      #expect(storage.checksMade == 1)
    }
  }

  @Test func readinessCountsAgainstTheClientAddressAndLivenessDoesNot() async throws {
    let fixture = ServerFixture {
      $0.trustForwardedFor = true
      $0.addressRequestsPerSecond = 2
      $0.addressBurst = 3
    }
    try await fixture.test { (client) async throws -> Void in
      for _ in 0..<3 { #expect(try await client.get(Wire.Path.ready, token: nil, forwardedFor: "192.0.2.7").status == .ok) }
      let limited = try await client.get(Wire.Path.ready, token: nil, forwardedFor: "192.0.2.7")
      #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "1")
      #expect(limited.refusal?.code == "rate-limited")
      #expect(try await client.get(Wire.Path.ready, token: nil, forwardedFor: "192.0.2.8").status == .ok)
      for _ in 0..<10 { #expect(try await client.get(Wire.Path.health, token: nil, forwardedFor: "192.0.2.7").status == .ok) }
    }
  }
}
