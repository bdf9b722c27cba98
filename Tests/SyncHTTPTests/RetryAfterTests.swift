import Foundation
import Sync
import SyncHTTP
import SyncServer
import TestSupport
import Testing

/// `HTTPCloud` honours a `429` with `Retry-After`: it waits as long as the server says —
/// not its own shorter retry delays — and the request then goes through.
@Suite(.timeLimit(.minutes(2)))
struct RetryAfterTests {
  @Test func aRateLimitedCloudWaitsForRetryAfterAndGoesOn() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    var configuration = ServerConfiguration()
    configuration.tokenRequestsPerSecond = 1
    configuration.tokenBurst = 2
    try await withServer(storage, configuration: configuration) { url, _ in
      try await onThread {
        // Retries 10 ms apart would all be refused: only waiting for Retry-After (1 s) works.
        // Enough attempts that a loaded machine's slow answers still leave one after a wait.
        let quick = HTTPCloud.RetryPolicy(delays: Array(repeating: .milliseconds(10), count: 8))
        let cloud = try HTTPCloud(url: url, token: secrets[0], timeout: .seconds(60), retry: quick)
        _ = try cloud.latestSequence()
        let start = Date()
        #expect(try cloud.latestSequence() == 0)
        #expect(try cloud.latestSequence() == 0)
        #expect(Date().timeIntervalSince(start) >= 0.9, "the cloud did not wait for Retry-After")
      }
    }
  }
}
