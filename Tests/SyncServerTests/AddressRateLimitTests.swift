import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Prometheus
import SyncServer
import SyncWire
import Testing

/// Requests of one client address are limited by a token bucket of their own, before any
/// token is read: a flood of bad tokens or unauthenticated requests is refused with
/// `429 rate-limited` and `Retry-After`, counted by which limit refused it; the table of
/// buckets stays within its capacity whatever addresses a client cycles through.
struct AddressRateLimitTests {
  /// A server that reads the client's address from `X-Forwarded-For` (the router client has
  /// no socket), with a small limit and its metrics in `registry`.
  static func fixture(_ registry: PrometheusCollectorRegistry) -> ServerFixture {
    ServerFixture(metricsFactory: PrometheusMetricsFactory(registry: registry)) {
      $0.trustForwardedFor = true
      $0.addressRequestsPerSecond = 2
      $0.addressBurst = 3
      $0.tokenRequestsPerSecond = 1
      $0.tokenBurst = 1
    }
  }

  static func metrics(_ registry: PrometheusCollectorRegistry) -> String {
    var text: [UInt8] = []
    registry.emit(into: &text)
    return String(decoding: text, as: UTF8.self)
  }

  @Test func anAddressPastItsRateIsRefusedWhateverItsTokensAndOthersAreNot() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = Self.fixture(registry)
    let forged = "fgr1_" + String(repeating: "A", count: 43)
    try await fixture.test { client in
      // Bad tokens and no token count alike: three are answered 401, the fourth is 429.
      #expect(try await client.get(Wire.Path.session, token: forged, forwardedFor: "192.0.2.7").status == .unauthorized)
      #expect(try await client.get(Wire.Path.session, token: nil, forwardedFor: "192.0.2.7").status == .unauthorized)
      #expect(try await client.get(Wire.Path.devices, token: "garbage", forwardedFor: "192.0.2.7").status == .unauthorized)
      let limited = try await client.get(Wire.Path.session, token: forged, forwardedFor: "192.0.2.7")
      #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "1")
      #expect(limited.refusal?.code == "rate-limited")
      #expect(limited.refusal?.message.contains("address 192.0.2.7 made more than 2 requests a second") == true)
      // Only the last hop counts: what a client writes before it cannot move it to a new bucket.
      #expect(try await client.get(Wire.Path.session, token: forged, forwardedFor: "203.0.113.9, 192.0.2.7").status == .tooManyRequests)
      // Another address is not held back; health is never limited, readiness is (ReadinessTests).
      #expect(try await client.get(Wire.Path.session, token: forged, forwardedFor: "192.0.2.8").status == .unauthorized)
      for _ in 0..<10 { #expect(try await client.get(Wire.Path.health, token: nil, forwardedFor: "192.0.2.7").status == .ok) }
      #expect(try await client.get(Wire.Path.ready, token: nil, forwardedFor: "192.0.2.7").status == .tooManyRequests)
      // Half a second later one request is allowed again (2 a second), the next is not.
      fixture.clock.advance(by: 0.5)
      #expect(try await client.get(Wire.Path.session, token: forged, forwardedFor: "192.0.2.7").status == .unauthorized)
      #expect(try await client.get(Wire.Path.session, token: forged, forwardedFor: "192.0.2.7").status == .tooManyRequests)
    }
    let text = Self.metrics(registry)
    #expect(text.contains(#"forager_rate_limited_total{limit="address"} 4"#), "\(text)")
  }

  @Test func aTokenPastItsOwnRateIsCountedAsTheTokenLimit() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = Self.fixture(registry)
    let phone = try await fixture.token(device: "phone")
    try await fixture.test { client in
      #expect(try await client.get(Wire.Path.session, token: phone, forwardedFor: "192.0.2.20").status == .ok)
      let limited = try await client.get(Wire.Path.session, token: phone, forwardedFor: "192.0.2.21")
      #expect(limited.status == .tooManyRequests && limited.refusal?.message.contains("token ") == true)
    }
    let text = Self.metrics(registry)
    #expect(text.contains(#"forager_rate_limited_total{limit="token"} 1"#), "\(text)")
    #expect(!text.contains(#"forager_rate_limited_total{limit="address"}"#), "\(text)")
  }

  @Test func theBucketTableStaysWithinItsCapacityWhileAddressesCycle() {
    let limit = RequestRateLimit(rate: 1, burst: 2, capacity: 100)
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var largest = 0
    for index in 0..<10_000 {
      now += 0.001
      #expect(limit.take("198.51.\(index / 256).\(index % 256)", now: now) == nil)
      largest = max(largest, limit.count)
    }
    #expect(largest == 100, "the table held \(largest) buckets")
  }

  @Test func fullBucketsAreDroppedFirstThenTheLeastRecentlyUsed() {
    let limit = RequestRateLimit(rate: 1, burst: 2, capacity: 4)
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    // Full buckets go first: a and b have refilled by the time c, d and e pass the capacity.
    for key in ["a", "b"] { #expect(limit.take(key, now: start) == nil) }
    for key in ["c", "d", "e"] { #expect(limit.take(key, now: start + 5) == nil) }
    #expect(limit.count == 3)
    // c kept its bucket (one request left, then refused); a starts with a full one again.
    #expect(limit.take("c", now: start + 5) == nil)
    #expect(limit.take("c", now: start + 5) == 1)
    // No bucket full: the least recently used are dropped, never the one just taken from.
    let later = start + 10
    for (offset, key) in ["w", "x", "y", "z", "v"].enumerated() { #expect(limit.take(key, now: later + Double(offset) * 0.01) == nil) }
    #expect(limit.count <= 4)
    #expect(limit.take("v", now: later + 0.05) == nil)
    #expect(limit.take("v", now: later + 0.05) == 1, "the bucket just taken from was dropped")
  }

  @Test func theAddressIsThePeerUnlessForwardedForIsTrustedAndIPv6CountsByItsNetwork() throws {
    let peer = try SocketAddress(ipAddress: "10.0.0.1", port: 40_000)
    var headers = HTTPFields()
    headers[try #require(HTTPField.Name("X-Forwarded-For"))] = "203.0.113.9, 192.0.2.7"
    #expect(ClientAddress.key(peer: peer, headers: headers, trustForwardedFor: false) == "10.0.0.1")
    #expect(ClientAddress.key(peer: peer, headers: headers, trustForwardedFor: true) == "192.0.2.7")
    #expect(ClientAddress.key(peer: nil, headers: HTTPFields(), trustForwardedFor: false) == nil)
    headers[try #require(HTTPField.Name("X-Forwarded-For"))] = "not an address"
    #expect(ClientAddress.key(peer: peer, headers: headers, trustForwardedFor: true) == "10.0.0.1")
    headers[try #require(HTTPField.Name("X-Forwarded-For"))] = "[2001:db8:1:2::7]:443"
    #expect(ClientAddress.key(peer: peer, headers: headers, trustForwardedFor: true) == "2001:db8:1:2::/64")
    headers[try #require(HTTPField.Name("X-Forwarded-For"))] = "192.0.2.7:5555"
    #expect(ClientAddress.key(peer: peer, headers: headers, trustForwardedFor: true) == "192.0.2.7")
    let sameNetwork = try SocketAddress(ipAddress: "2001:db8:1:2:aaaa::1", port: 1)
    #expect(ClientAddress.key(sameNetwork) == "2001:db8:1:2::/64")
    #expect(ClientAddress.key(try SocketAddress(ipAddress: "::ffff:192.0.2.1", port: 1)) == "192.0.2.1")
  }
}
