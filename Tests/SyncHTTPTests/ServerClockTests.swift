import Foundation
import Model
import Testing

@testable import SyncHTTP

/// How a device reads the server's clock from an answer: halfway through the request's
/// round trip, and not at all from an answer slower than `ServerClock.longestRoundTrip`,
/// whose reading could be off by more than the device keeps as noise.
@Suite struct ServerClockTests {
  static let serverTime: Int64 = 1_800_000_000_000

  @Test func anAnswerIsReadHalfwayThroughItsRoundTrip() throws {
    let clock = ServerClock()
    let sent = ContinuousClock.now - .milliseconds(1_000)
    clock.note(String(Self.serverTime), sent: sent, arrived: sent + .milliseconds(1_000))
    let now = try #require(clock.now(maxAge: .seconds(60)))
    // Read 1 s after sending: 0.5 s after the middle of the round trip, plus the test's own time.
    let ahead = now.timeIntervalSince1970 * 1000 - Double(Self.serverTime)
    #expect(ahead >= 500 && ahead < 1_500, "\(ahead) ms")
  }

  /// Generated round trips: an answer is read exactly when its round trip is at most the
  /// longest one, and a slower answer leaves the earlier reading in place.
  @Test func anAnswerSlowerThanTheLongestRoundTripIsNotRead() throws {
    var random = SeededGenerator(seed: 2)
    for _ in 0..<200 {
      let clock = ServerClock()
      let milliseconds = Int64.random(in: 0...4_000, using: &random)
      let sent = ContinuousClock.now - .milliseconds(milliseconds)
      clock.note(String(Self.serverTime), sent: sent, arrived: sent + .milliseconds(milliseconds))
      let read = clock.now(maxAge: .seconds(60)) != nil
      #expect(read == (Duration.milliseconds(milliseconds) <= ServerClock.longestRoundTrip), "\(milliseconds) ms")
    }
    let clock = ServerClock()
    let sent = ContinuousClock.now - .seconds(5)
    clock.note(String(Self.serverTime), sent: sent, arrived: sent + .milliseconds(10))
    clock.note(String(Self.serverTime + 60_000), sent: sent, arrived: sent + .seconds(4))
    let now = try #require(clock.now(maxAge: .seconds(60)))
    #expect(now.timeIntervalSince1970 * 1000 < Double(Self.serverTime + 10_000))
  }
}
