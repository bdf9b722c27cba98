import Foundation
import Model
import Persistence
import Repositories
import Synchronization
import TestSupport
import Testing

@testable import Sync
@testable import SyncMemory

/// Snapshots in the randomized schedules (Docs/SYNC.md, "Snapshots"): at every snapshot
/// the cloud takes, the reference view of the snapshot's states equals the reference view
/// of a device that replayed the log up to its position, and a device that starts from a
/// snapshot and pulls the rest converges with the devices that replayed everything.
@Suite("Snapshots")
struct SnapshotPropertyTests {
  /// The log up to `position`, and no snapshot: what a device replays.
  final class LogPrefix: CloudStore {
    let cloud: InMemoryCloud
    let position: Int64
    let location = "prefix"
    let identifier = "prefix"

    init(_ cloud: InMemoryCloud, position: Int64) {
      self.cloud = cloud
      self.position = position
    }

    func push(_ batch: ChangeBatch) throws -> Int64 { throw CloudError.unavailable(location: location, reason: "read only") }
    func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
      try cloud.pull(after: sequence, limit: limit).filter { $0.sequence <= position }
    }
    func latestSequence() throws -> Int64 { min(position, try cloud.latestSequence()) }
    func register(_ device: CloudDevice) throws {}
    func devices() throws -> [CloudDevice] { [] }
  }

  /// How the reference view of `pages` (a snapshot at `position`) differs from that of a
  /// new device's states after it replayed the log up to `position`; empty when equal.
  static func problems(of pages: [ChangeBatch], at position: Int64, in cloud: InMemoryCloud, clock: TickingClock) throws -> [String] {
    let store = try TestBackend.memory.makeStore(clock: clock.now)
    let engine = SyncEngine(store: store, cloud: LogPrefix(cloud, position: position), deviceName: "replay")
    // Its own writes are none; a register call on the prefix is a no-op.
    _ = try engine.sync()
    let replayed = try store.read { try ReferenceView.read($0) }
    let snapshot = ReferenceView(states: pages.flatMap(\.changes).map { RecordState($0) })
    var problems: [String] = []
    for key in Set(replayed.expected.keys).union(snapshot.expected.keys).sorted() where replayed.expected[key] != snapshot.expected[key] {
      problems.append("snapshot at \(position): \(key.kind.rawValue) \(key.id.lowercaseText) differs from the replayed log")
    }
    return problems
  }

  /// Plays seed's schedule with a snapshot taken at random steps, each held to the replayed
  /// log; then a device joins from the newest snapshot and everything must converge.
  @Test(arguments: RandomizedConvergenceTests.seeds)
  func snapshotsEqualTheReplayedLogAndNewDevicesConverge(seed: UInt64) throws {
    var schedule = RandomizedConvergenceTests.Schedule(random: SeededGenerator(seed: seed))
    let cloud = InMemoryCloud(identifier: "cloud-\(seed)")
    let devices = (0..<(3 + Int(schedule.next() % 3))).map { "D\($0)" }
    let world = try SyncWorld(
      seed % 2 == 0 ? .sqlite : .memory, devices: devices, cloud: cloud, pullPageSize: 1 + Int(schedule.next() % 8),
      pushBatchSize: 1 + Int(schedule.next() % 50), seed: seed)
    var problems: [String] = []
    var snapshots = 0
    for _ in 0..<1_200 {
      if schedule.next() % 150 == 0 {
        let position = try cloud.takeSnapshot(rules: ChangeRules(now: world.clock.now()), changesPerPage: 1 + Int(schedule.next() % 40))
        if position > 0 {
          snapshots += 1
          problems += try Self.problems(of: cloud.snapshots.withLock { $0.pages }, at: position, in: cloud, clock: world.clock)
        }
        continue
      }
      do {
        let device = schedule.pick(world.devices)
        try RandomizedConvergenceTests.work(device, world, &schedule)
      } catch is RepositoryError {}
    }
    // A last snapshot before the devices settle, so the new device has batches to pull after it.
    let position = try cloud.takeSnapshot(rules: ChangeRules(now: world.clock.now()), changesPerPage: 7)
    problems += try Self.problems(of: cloud.snapshots.withLock { $0.pages }, at: position, in: cloud, clock: world.clock)
    world.offline = []
    for device in world.devices { try world.sync(device) }
    let late = try world.addDevice("late")
    let report = try world.sync(late)
    #expect(report.snapshotPosition == position, "seed \(seed): the new device did not start from the snapshot")
    try world.syncUntilQuiet(maxRounds: 12)
    problems += try world.invariantViolations(schedule.check)
    #expect(snapshots + 1 >= 2, "seed \(seed): the schedule took \(snapshots + 1) snapshots")
    #expect(problems.isEmpty, "seed \(seed): \(problems.count) problems, first \(problems.prefix(5))")
  }

  /// The check fails on a broken snapshot: one that skipped a batch of the log.
  @Test func aSnapshotThatSkippedABatchIsCaught() throws {
    let cloud = InMemoryCloud(identifier: "cloud-skip")
    let world = try SyncWorld(.memory, devices: ["A", "B"], cloud: cloud, seed: 7)
    _ = try world["A"].library.categories.getOrCreate("Produce")
    try world.sync("A")
    _ = try world["B"].library.categories.getOrCreate("Dairy")
    try world.sync("B")
    let rules = ChangeRules(now: world.clock.now())
    let position = try cloud.takeSnapshot(rules: rules)
    #expect(try Self.problems(of: cloud.snapshots.withLock { $0.pages }, at: position, in: cloud, clock: world.clock).isEmpty)
    var broken = SnapshotFold()
    for entry in try cloud.pull(after: 0, limit: 100) {
      // The fold skips batch 2 (B's "Dairy") but still moves past it.
      let skipped = entry.sequence == 2 ? CloudEntry(sequence: 2, damage: "skipped") : entry
      #expect(broken.fold(skipped, rules: rules) == .folded)
    }
    #expect(broken.position == position)
    let problems = try Self.problems(of: broken.pages(changesPerPage: 10), at: position, in: cloud, clock: world.clock)
    #expect(problems.count == 1, "\(problems)")
  }

  /// A device refuses a snapshot page that breaks the rules of a pulled batch, and its
  /// store stays as it was.
  @Test func aPageThatBreaksTheRulesIsRefused() throws {
    let rules = ChangeRules(now: Fixtures.epoch)
    let stamp = Stamp(time: Fixtures.epoch.millisecondsSince1970, counter: 0, replica: "a")
    func page(_ fields: [String: StampedValue], position: Int64 = 3, pageCount: Int = 1) -> SnapshotPage {
      let change = RecordChange(
        kind: .category, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "a", sharingScope: .private,
        fields: fields)
      return SnapshotPage(
        position: position, schemaVersion: ChangeBatchCoding.schemaVersion, page: 0, pageCount: pageCount,
        batch: ChangeBatch(
          id: "snapshot:3:0", replica: SnapshotFold.replica, schemaVersion: ChangeBatchCoding.schemaVersion, changes: [change]))
    }
    let good = page(["@exists": StampedValue(value: .bool(true), stamp: stamp)])
    #expect(good.problem(expecting: 0, of: nil, pageCount: nil, rules: rules) == nil)
    let unknownField = page(["colour": StampedValue(value: .text("red"), stamp: stamp)])
    #expect(unknownField.problem(expecting: 0, of: nil, pageCount: nil, rules: rules)?.contains("colour") == true)
    let ahead = Stamp(time: Fixtures.epoch.millisecondsSince1970 + 60_000, counter: 0, replica: "b")
    #expect(
      page(["@exists": StampedValue(value: .bool(true), stamp: ahead)]).problem(expecting: 0, of: nil, pageCount: nil, rules: rules)?
        .contains("ahead") == true)
    #expect(good.problem(expecting: 0, of: 4, pageCount: nil, rules: rules)?.contains("not 4") == true)
    #expect(page([:], position: 0).problem(expecting: 0, of: nil, pageCount: nil, rules: rules) != nil)
    #expect(page([:], pageCount: SnapshotPage.maximumPages + 1).problem(expecting: 0, of: nil, pageCount: nil, rules: rules) != nil)
  }

  /// The fold takes what a device joins: it leaves out a change that breaks the rules for
  /// good, and stops before a batch a device holds (a newer schema) or waits for (a stamp
  /// ahead of the clock), and before an entry that does not follow its position.
  @Test func theFoldStopsWhereADeviceWouldHoldOrWait() {
    let rules = ChangeRules(now: Fixtures.epoch)
    let now = Fixtures.epoch.millisecondsSince1970
    func entry(_ sequence: Int64, _ fields: [String: StampedValue], id: UUID = UUID()) -> CloudEntry {
      let change = RecordChange(
        kind: .category, id: id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "a", sharingScope: .private, fields: fields)
      return CloudEntry(
        sequence: sequence,
        batch: ChangeBatch(id: "a:\(sequence)", replica: "a", schemaVersion: ChangeBatchCoding.schemaVersion, changes: [change]))
    }
    let live = StampedValue(value: .bool(true), stamp: Stamp(time: now, counter: 0, replica: "a"))
    var fold = SnapshotFold()
    #expect(fold.fold(entry(1, ["@exists": live]), rules: rules) == .folded)
    #expect(fold.fold(entry(2, ["colour": StampedValue(value: .text("red"), stamp: live.stamp)]), rules: rules) == .folded)
    #expect(fold.position == 2 && fold.recordCount == 1, "a change that breaks the rules is left out")
    let ahead = StampedValue(value: .bool(true), stamp: Stamp(time: now + 60_000, counter: 0, replica: "a"))
    #expect(fold.fold(entry(3, ["@exists": ahead]), rules: rules) != .folded)
    let held = HeldBatch(
      sequence: 3, id: "a:3", replica: "a", schemaVersion: ChangeBatchCoding.schemaVersion + 1, reason: "newer", bytes: Data())
    #expect(fold.fold(CloudEntry(held: held), rules: rules) != .folded)
    #expect(fold.fold(entry(4, ["@exists": live]), rules: rules) != .folded)
    #expect(fold.position == 2 && fold.recordCount == 1)
    let resumed = SnapshotFold(position: fold.position, schemaVersion: fold.schemaVersion, pages: fold.pages(changesPerPage: 1))
    #expect(resumed.pages(changesPerPage: 5) == fold.pages(changesPerPage: 5))
  }
}
