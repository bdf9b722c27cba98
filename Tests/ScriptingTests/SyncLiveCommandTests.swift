import CommandLanguage
import Foundation
import Scripting
import Sync
import SyncMemory
import Synchronization
import TestSupport
import Testing

/// A clock the test moves by hand: live sync's debounce and polls read it.
final class ManualClock: Sendable {
  private let time = Mutex(Date(timeIntervalSince1970: 1_734_048_000))
  var now: @Sendable () -> Date { { [self] in time.withLock { $0 } } }
  func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// `sync live`, the live columns of `sync status` and `sync wait`: two sessions on one cloud
/// see each other's writes without a `sync` command (Docs/COMMANDS.md, Docs/SYNC.md "Live").
/// Time is moved by hand and every wait is on an event, bounded only by the suite's limit.
@Suite(.timeLimit(.minutes(3))) struct SyncLiveCommandTests {
  /// Two harnesses on one cloud: one `InMemoryCloud` object, or two openings of one cloud file
  /// (as two processes would).
  private static func pair(_ backend: String, clock: ManualClock) throws -> (Harness, Harness) {
    let a = try Harness(), b = try Harness()
    if backend == "memory" {
      let cloud = InMemoryCloud()
      a.session.cloud = cloud
      b.session.cloud = cloud
    } else {
      let path = try TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path
      try a.run("cloud open \(path)")
      try b.run("cloud open \(path)")
    }
    for harness in [a, b] {
      harness.session.liveClock = clock.now
      try harness.run("sync live on")
    }
    return (a, b)
  }

  @Test(arguments: ["memory", "file"])
  func twoLiveSessionsSeeEachOthersWriteWithoutSync(backend: String) throws {
    let clock = ManualClock()
    let (a, b) = try Self.pair(backend, clock: clock)
    // The first round syncs each device and opens its channel.
    _ = a.session.runLive()
    _ = b.session.runLive()
    let cloud = try #require(a.session.cloud)
    let before = try cloud.latestSequence()

    try a.run("list new Groceries --week 2024-W50\nlist add Milk to Groceries")
    // Within the debounce nothing goes out.
    _ = a.session.runLive()
    #expect(try cloud.latestSequence() == before)
    // Past it (20 ms; less than a poll or a backoff), the write is pushed.
    clock.advance(0.05)
    _ = a.session.runLive()
    #expect(try cloud.latestSequence() > before)

    // The other session hears the announcement and pulls: no `sync` typed.
    let live = try #require(b.session.liveSync(for: b.session.current))
    // Heard within a bounded number of waits (the file cloud reads its file every 100 ms),
    // so a channel that never speaks fails here instead of hanging the run.
    var notices: [String] = []
    for _ in 0..<120 where !notices.contains(where: { $0.contains("from the household") }) {
      live.wait(timeout: .seconds(1))
      notices += b.session.runLive()
    }
    #expect(notices.contains { $0.hasPrefix("· ") && $0.hasSuffix("changes from the household") }, "\(notices)")
    #expect(try b.text("list items Groceries").contains("Milk"))

    // And back: b checks Milk off, a sees it checked.
    try b.run("list check Milk on Groceries")
    clock.advance(0.05)
    _ = b.session.runLive()
    let liveA = try #require(a.session.liveSync(for: a.session.current))
    var checked = false
    for _ in 0..<120 where !checked {
      liveA.wait(timeout: .seconds(1))
      _ = a.session.runLive()
      checked = try a.json("list items Groceries").rows("items").contains { $0["completed"] == .bool(true) }
    }
    #expect(checked, "the check-off did not reach the first session")

    // Off closes the channel: a's next write is not pushed by itself.
    try a.run("sync live off")
    let sequence = try cloud.latestSequence()
    try a.run("list add Bread to Groceries")
    clock.advance(60)
    #expect(a.session.runLive().isEmpty)
    #expect(try cloud.latestSequence() == sequence)
  }

  @Test func statusShowsTheLiveStateAndLag() throws {
    let clock = ManualClock()
    let (a, _) = try Self.pair("memory", clock: clock)
    _ = a.session.runLive()
    let live = try a.json("sync status --json")
    let row = try #require(live.rows("devices").first)
    #expect(row["live"] == .string("subscribed"))
    #expect(row["lag"] == .int(0))
    let entry = try #require(live.rows("live").first)
    #expect(entry["device"] == .string("default"))
    #expect(entry["live"] == .bool(true))
    #expect(entry["channel"] == .string("subscribed"))
    #expect(entry["lag"] == .int(0))
    for key in ["lastAnnouncement", "lastAnnouncementAt", "heardLatest", "lastDrop", "lastError", "liveSyncs"] {
      #expect(entry[key] != nil, "sync status --json live entry lacks \(key)")
    }
    #expect(try a.text("sync live").contains("live, subscribed"))

    try a.run("sync live off")
    let off = try a.json("sync status --json")
    #expect(off.rows("devices").first?["live"] == .string("off"))
    #expect(off.rows("live").first?["channel"] == .string("off"))
    #expect(off.rows("live").first?["lag"] == .null)
    #expect(try a.text("sync live").contains("is not live"))
  }

  @Test func badLiveAndWaitInputsAreRefusedNamingWhatAndWhere() throws {
    let harness = try Harness()
    try harness.expectFailure("sync live on", .failed, mentions: ["sync live", "no cloud", "cloud open"])
    try harness.expectFailure("sync wait --until caught-up", .failed, mentions: ["sync wait", "no cloud"])
    try harness.run("cloud open --memory")
    try harness.expectFailure("sync wait", .usage, mentions: ["--until", "caught-up", "item NAME on LIST"])
    try harness.expectFailure("sync wait --until soon", .usage, mentions: ["--until", "'soon'", "caught-up"])
    try harness.expectFailure("sync wait --until \"item on Groceries\"", .usage, mentions: ["--until"])
    try harness.expectFailure("sync wait --until caught-up --timeout 0", .usage, mentions: ["--timeout", "3,600"])
    try harness.expectFailure("sync wait --until caught-up --timeout 3601", .usage, mentions: ["--timeout", "3,600"])
    try harness.expectFailure("sync live on --device phone", .failed, mentions: ["--device", "no device named 'phone'"])
    try harness.run("device offline")
    try harness.expectFailure("sync live on", .failed, mentions: ["offline", "device online"])
    #expect(harness.error("sync live maybe")?.description.contains("on, off") == true)
    #expect(harness.error("sync wiat")?.description.contains("did you mean 'sync wait'?") == true)
  }

  @Test func waitSucceedsWhenTheItemArrivesAndTimesOutNamingWhatItAwaited() throws {
    let cloud = InMemoryCloud()
    let a = try Harness(), b = try Harness()
    a.session.cloud = cloud
    b.session.cloud = cloud
    try a.run("list new Groceries --week 2024-W50\nlist add Milk to Groceries\nsync")

    let reached = try b.json("sync wait --until \"item Milk on Groceries\" --timeout 600 --json")
    #expect(reached["wait"]?["reached"] == .bool(true))
    #expect(reached["wait"]?["live"] == .bool(false))
    #expect(try b.text("list items Groceries").contains("Milk"))
    let caughtUp = try b.json("sync wait --until caught-up --json")
    #expect(caughtUp["wait"]?["cursor"] == caughtUp["wait"]?["latest"])
    #expect(caughtUp["wait"]?["pending"] == .bool(false))

    // Nobody adds Bread: the wait runs out and says what it waited for, on which device.
    try b.expectFailure(
      "sync wait --until \"item Bread checked on Groceries\" --timeout 0.2", .failed,
      mentions: ["sync wait", "--until", "timed out after 0.2 s", "item 'Bread' checked on list 'Groceries'", "device 'default'"])
  }
}
