import Foundation
import Model
import Repositories
import Scripting
import Sync
import SyncMemory
import Synchronization
import Testing

/// A cloud that can be taken down and brought back, as a sync server restarting: while it
/// is down every request fails with a reason that names the attempt (so no two failures
/// read alike) and every live channel it is asked for ends at once.
final class OutageCloud: LiveCloud {
  let inner = InMemoryCloud()
  private let state = Mutex((down: false, attempts: 0))

  var location: String { inner.location }
  var identifier: String { inner.identifier }

  func goDown() {
    state.withLock { $0.down = true }
    inner.dropLiveChannels()
  }

  func comeBack() { state.withLock { $0.down = false } }

  /// The attempt's number while the cloud is down, else nil.
  private func attempt() -> Int? {
    state.withLock { state in
      guard state.down else { return nil }
      state.attempts += 1
      return state.attempts
    }
  }

  private func check() throws {
    if let attempt = attempt() {
      throw CloudError.unavailable(location: location, reason: "cannot reach the server: connection refused (attempt \(attempt))")
    }
  }

  func push(_ batch: ChangeBatch) throws -> Int64 {
    try check()
    return try inner.push(batch)
  }

  func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    try check()
    return try inner.pull(after: sequence, limit: limit)
  }

  func latestSequence() throws -> Int64 {
    try check()
    return try inner.latestSequence()
  }

  func register(_ device: CloudDevice) throws {
    try check()
    try inner.register(device)
  }

  func devices() throws -> [CloudDevice] {
    try check()
    return try inner.devices()
  }

  func openLiveChannel(_ handler: @escaping @Sendable (LiveSignal) -> Void) -> any LiveChannel {
    guard let attempt = attempt() else { return inner.openLiveChannel(handler) }
    handler(.ended("the live channel failed: connection refused (attempt \(attempt))"))
    return EndedChannel()
  }

  /// A channel that ended as it opened.
  final class EndedChannel: LiveChannel {
    func close() {}
  }
}

/// A live device through an outage of its cloud: the person at the prompt hears once that
/// live sync is down and once that it is back, and a change written meanwhile goes out as
/// soon as the channel opens again, not at the next poll.
@Suite(.timeLimit(.minutes(2))) struct LiveOutageTests {
  /// Whether every "(" in `text` is closed, in order.
  static func balanced(_ text: String) -> Bool {
    var depth = 0
    for character in text {
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if depth < 0 { return false }
    }
    return depth == 0
  }

  @Test func anOutageIsToldOnceAndAChangeMadeDuringItGoesOutWhenTheChannelReopens() throws {
    let clock = ManualClock()
    let harness = try Harness()
    let cloud = OutageCloud()
    harness.session.cloud = cloud
    harness.session.liveClock = clock.now
    try harness.run("sync live on")
    _ = harness.session.runLive()
    let live = try #require(harness.session.liveSync(for: harness.session.current))
    #expect(live.status.mode == .live)

    cloud.goDown()
    try harness.run("list new Groceries --week 2024-W50")
    var notices: [String] = []
    // Retries for five minutes: the backoff grows to its longest (30 s) and stays there.
    for _ in 0..<60 {
      clock.advance(5)
      notices += harness.session.runLive()
    }
    #expect(notices.count == 1, "\(notices)")
    #expect(notices.first?.hasPrefix("· live sync is down: ") == true, "\(notices)")
    #expect(notices.allSatisfy(Self.balanced), "\(notices)")
    #expect(try live.engine.hasPendingChanges())

    cloud.comeBack()
    let before = try cloud.inner.latestSequence()
    // The channel opens again at its reopen time; the poll that opening sets is 30 s away…
    let reopen = try #require(live.status.reopenAt)
    let now = clock.now()
    clock.advance(max(0, reopen.timeIntervalSince(now)))
    notices = harness.session.runLive()
    #expect(live.status.mode == .live)
    #expect(notices == ["· live sync is back"], "\(notices)")
    let atReopen = try cloud.inner.latestSequence()
    #expect(atReopen == before)
    // …and the change goes out after the debounce, not then.
    clock.advance(0.05)
    notices += harness.session.runLive()
    let afterDebounce = try cloud.inner.latestSequence()
    #expect(afterDebounce > before)
    #expect(try !live.engine.hasPendingChanges())
    #expect(notices == ["· live sync is back"], "\(notices)")
  }
}
