import Foundation
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import Synchronization
import TestSupport
import Testing

/// `HTTPCloud` honours a `429` with `Retry-After`: it waits as long as the server says —
/// not its own shorter retry delays — and the request then goes through.
@Suite(.timeLimit(.minutes(2)))
struct RetryAfterTests {
  /// The server's clock stands still unless the client waits: each wait moves it on by the
  /// seconds waited. How long the machine takes to answer cannot refill the token bucket.
  final class WaitingClock: Sendable {
    private let state: Mutex<(now: Date, waits: [TimeInterval])>
    init(_ start: Date) { state = Mutex((start, [])) }
    var now: Date { state.withLock { $0.now } }
    var waits: [TimeInterval] { state.withLock { $0.waits } }
    func wait(_ seconds: TimeInterval) {
      state.withLock {
        $0.now += seconds
        $0.waits.append(seconds)
      }
    }
  }

  /// Runs `body` on a thread of its own against a server whose token bucket holds two
  /// requests and refills one a second of `clock`, with the phone's token.
  private func withRateLimitedServer(
    _ clock: WaitingClock, _ body: @escaping @Sendable (_ url: String, _ token: String) throws -> Void
  ) async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    var configuration = ServerConfiguration(clock: { clock.now })
    configuration.tokenRequestsPerSecond = 1
    configuration.tokenBurst = 2
    try await withServer(storage, configuration: configuration) { url, _ in
      try await onThread { try body(url, secrets[0]) }
    }
  }

  @Test func aRateLimitedCloudWaitsForRetryAfterAndGoesOn() async throws {
    let clock = WaitingClock(Date())
    try await withRateLimitedServer(clock) { url, token in
      // Retries 10 ms apart would all be refused: only waiting for Retry-After (1 s) works.
      let quick = HTTPCloud.RetryPolicy(delays: Array(repeating: .milliseconds(10), count: 8), wait: clock.wait)
      // The session and this read take the bucket's two requests.
      let cloud = try HTTPCloud(url: url, token: token, timeout: .seconds(60), retry: quick)
      _ = try cloud.latestSequence()
      #expect(clock.waits.isEmpty)
      #expect(try cloud.latestSequence() == 0)
      #expect(try cloud.latestSequence() == 0)
      #expect(clock.waits == [1, 1], "the cloud did not wait for Retry-After")
    }
  }

  @Test func aCloudThatIgnoredRetryAfterWouldBeRefused() async throws {
    // The other side of the test above: the same server and waits of the policy's own
    // length get nowhere, so the wait above is what made the difference.
    let clock = WaitingClock(Date())
    try await withRateLimitedServer(clock) { url, token in
      let impatient = HTTPCloud.RetryPolicy(delays: Array(repeating: .milliseconds(10), count: 8)) { _ in clock.wait(0.01) }
      let cloud = try HTTPCloud(url: url, token: token, timeout: .seconds(60), retry: impatient)
      _ = try cloud.latestSequence()
      #expect(throws: CloudError.self) { try cloud.latestSequence() }
    }
  }
}
