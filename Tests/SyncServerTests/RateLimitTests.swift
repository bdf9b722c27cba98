import Foundation
import HTTPTypes
import HummingbirdTesting
import SyncServer
import SyncWire
import Testing

/// One token's requests are limited by a token bucket on the server's clock: past its burst
/// it is `429 rate-limited` with `Retry-After`, another token is not held back, and the
/// bucket fills again as the clock moves.
struct RateLimitTests {
  @Test func aTokenPastItsRateIsRefusedWithRetryAfterAndOthersAreNot() async throws {
    let fixture = ServerFixture {
      $0.tokenRequestsPerSecond = 2
      $0.tokenBurst = 3
    }
    let phone = try await fixture.token(device: "phone")
    let laptop = try await fixture.token(device: "laptop")
    try await fixture.test { client in
      for _ in 0..<3 { #expect(try await client.get(Wire.Path.session, token: phone).status == .ok) }
      let limited = try await client.get(Wire.Path.session, token: phone)
      #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "1")
      #expect(limited.refusal?.code == "rate-limited")
      #expect(limited.refusal?.message.contains("made more than 2 requests a second") == true)
      #expect(try await client.get(Wire.Path.session, token: laptop).status == .ok)
      // Half a second later one request is allowed again (2 a second), the next is not.
      fixture.clock.advance(by: 0.5)
      #expect(try await client.get(Wire.Path.session, token: phone).status == .ok)
      #expect(try await client.get(Wire.Path.session, token: phone).status == .tooManyRequests)
      // Health needs no token and is not limited.
      for _ in 0..<10 { #expect(try await client.get(Wire.Path.health, token: nil).status == .ok) }
    }
  }
}
