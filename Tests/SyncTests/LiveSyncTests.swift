import Foundation
import Model
import Repositories
import Sync
import SyncMemory
import TestSupport
import Testing

/// A time that stands still until the test moves it: every timer of ``LiveSync`` reads it.
final class ManualNow: @unchecked Sendable {
  private let lock = NSLock()
  private var current = Date(timeIntervalSince1970: 1_800_000_000)
  var now: Date { lock.withLock { current } }
  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// Live devices on the in-memory cloud, driven step by step: an announcement past the
/// cursor syncs, a local write goes out after the debounce (a burst once), a dropped channel
/// falls back to polling and subscribes again, and two shoppers on one list converge.
@Suite(.timeLimit(.minutes(10)))
struct LiveSyncTests {
  static func live(_ world: SyncWorld, _ names: [String], _ now: ManualNow) -> [String: LiveSync] {
    var lives: [String: LiveSync] = [:]
    for name in names {
      let live = LiveSync(engine: world[name].engine, now: { now.now })
      live.start()
      lives[name] = live
    }
    return lives
  }

  /// Moves time on in small steps and runs what is due on every device until a step syncs
  /// nothing and nothing but the slow safety poll is left to do; how many syncs ran.
  @discardableResult
  static func settle(_ lives: [LiveSync], _ now: ManualNow, steps: Int = 40) throws -> Int {
    var total = 0
    for _ in 0..<steps {
      now.advance(0.05)
      var ran = 0
      for live in lives where try live.runDue() != nil { ran += 1 }
      total += ran
      let quiet = lives.allSatisfy { ($0.nextDue ?? .distantFuture) > now.now.addingTimeInterval(5) }
      if ran == 0 && quiet { return total }
    }
    Issue.record("live devices did not settle in \(steps) steps")
    return total
  }

  @Test func anAnnouncementPastTheCursorSyncsAndNothingElseDoes() throws {
    let world = try SyncWorld(.memory, devices: ["A", "B"])
    let now = ManualNow()
    let lives = Self.live(world, ["A", "B"], now)
    try Self.settle(Array(lives.values), now)
    #expect(lives["B"]?.status.mode == .live)
    _ = try world["A"].library.categories.getOrCreate("Produce")
    try world.sync("A")
    // B heard that the log grew past its cursor, and syncs at once, without a poll being due.
    #expect(try lives["B"]?.lag() == 1)
    #expect(try lives["B"]?.runDue() != nil)
    #expect(try world["B"].library.categories.all().map(\.displayName) == ["Produce"])
    #expect(try lives["B"]?.lag() == 0)
    #expect(lives["B"]?.status.lastAnnouncement == 1)
    #expect(try lives["B"]?.runDue() == nil)
  }

  @Test func aBurstOfLocalWritesGoesOutOnceAfterTheDebounce() throws {
    let world = try SyncWorld(.memory, devices: ["A", "B"])
    let now = ManualNow()
    let lives = Self.live(world, ["A", "B"], now)
    try Self.settle(Array(lives.values), now)
    let a = try #require(lives["A"])
    for name in ["Produce", "Dairy", "Bakery"] {
      _ = try world["A"].library.categories.getOrCreate(name)
      a.noteLocalWrite()
      now.advance(0.005)
    }
    // Due 20 ms after the first write; 15 ms have passed: not yet.
    #expect(try a.runDue() == nil)
    now.advance(0.02)
    let report = try #require(try a.runDue())
    #expect(report.pushedBatches == 1 && report.exported == 3)
    try Self.settle(Array(lives.values), now)
    #expect(try world["B"].library.categories.all().count == 3)
  }

  @Test func aDroppedChannelFallsBackToPollingAndSubscribesAgainWithNothingLostOrDoubled() throws {
    let cloud = InMemoryCloud(identifier: "live-drop")
    let world = try SyncWorld(.memory, devices: ["A", "B"], cloud: cloud)
    let now = ManualNow()
    let lives = Self.live(world, ["A", "B"], now)
    try Self.settle(Array(lives.values), now)
    cloud.dropLiveChannels()
    #expect(lives["B"]?.status.mode == .polling)
    #expect(lives["B"]?.status.lastDrop == "the cloud dropped the channel")
    // Pushed while B hears nothing: only the poll brings it.
    _ = try world["A"].library.categories.getOrCreate("Produce")
    try world.sync("A")
    #expect(try lives["B"]?.lag() == 0)
    try Self.settle(Array(lives.values), now)
    #expect(lives["B"]?.status.mode == .live)
    #expect(try world["B"].library.categories.all().map(\.displayName) == ["Produce"])
    // Dropped again and again, with writes on both sides in between: every write arrives once.
    for round in 0..<5 {
      _ = try world["A"].library.categories.getOrCreate("A\(round)")
      lives["A"]?.noteLocalWrite()
      if round.isMultiple(of: 2) { cloud.dropLiveChannels() }
      _ = try world["B"].library.categories.getOrCreate("B\(round)")
      lives["B"]?.noteLocalWrite()
      try Self.settle(Array(lives.values), now)
    }
    let names = try world["A"].library.categories.all().map(\.displayName).sorted()
    #expect(names.count == 11)
    #expect(try world["B"].library.categories.all().map(\.displayName).sorted() == names)
    #expect(try world.invariantViolations() == [])
    #expect(try world["A"].engine.pendingChangeCount() == 0 && world["B"].engine.pendingChangeCount() == 0)
  }

  @Test func aStoppedDeviceSyncsNoMore() throws {
    let world = try SyncWorld(.memory, devices: ["A", "B"])
    let now = ManualNow()
    let lives = Self.live(world, ["A", "B"], now)
    try Self.settle(Array(lives.values), now)
    lives["B"]?.stop()
    _ = try world["A"].library.categories.getOrCreate("Produce")
    try world.sync("A")
    now.advance(3_600)
    #expect(try lives["B"]?.runDue() == nil)
    #expect(lives["B"]?.status.mode == .off)
  }

  /// Two people in one shop on one list: checking, unchecking, removing and adding at once,
  /// live. Both phones end with the same list; nothing checked comes back unchecked by a
  /// stale write, nothing removed comes back, nothing added is lost.
  @Test(arguments: TestBackend.allCases)
  func twoShoppersOnOneListConvergeLive(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    let now = ManualNow()
    let lives = Self.live(world, ["A", "B"], now)
    let (a, b) = (world["A"].library.lists, world["B"].library.lists)
    let list = try a.create("Shop", week: "2026-W47").id.uuidString
    for item in ["milk", "eggs", "butter"] { _ = try a.addItem(item, to: list) }
    lives["A"]?.noteLocalWrite()
    try Self.settle(Array(lives.values), now)
    #expect(try b.items(of: list).count == 3)

    // At once, before either hears the other.
    _ = try a.check("milk", on: list)
    _ = try a.check("eggs", on: list)
    _ = try a.addItem("bread", to: list)
    lives["A"]?.noteLocalWrite()
    _ = try b.removeItem("eggs", from: list)
    _ = try b.addItem("apples", to: list)
    _ = try b.check("butter", on: list)
    lives["B"]?.noteLocalWrite()
    try Self.settle(Array(lives.values), now)
    let expected = ["apples: open", "bread: open", "butter: done", "milk: done"]
    #expect(try Self.shown(world["A"].library, list) == expected)
    #expect(try Self.shown(world["B"].library, list) == expected)

    // Then one unchecks milk while the other checks bread and adds milk again.
    _ = try b.check("milk", on: list, done: false)
    lives["B"]?.noteLocalWrite()
    now.advance(0.001)
    _ = try a.check("bread", on: list)
    _ = try a.addItem("oat milk", to: list)
    lives["A"]?.noteLocalWrite()
    try Self.settle(Array(lives.values), now)
    let after = ["apples: open", "bread: done", "butter: done", "milk: open", "oat milk: open"]
    #expect(try Self.shown(world["A"].library, list) == after)
    #expect(try Self.shown(world["B"].library, list) == after)
    #expect(try world.invariantViolations() == [])
  }

  static func shown(_ library: Library, _ list: String) throws -> [String] {
    try library.lists.items(of: list).map { "\($0.displayName): \($0.isCompleted ? "done" : "open")" }.sorted()
  }
}
