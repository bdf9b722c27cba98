import Foundation
import Model
import Persistence
import Repositories
import Synchronization
import TestSupport
import Testing

@testable import Sync
@testable import SyncMemory

/// Compaction in the randomized schedules (Docs/SERVER.md, "Compaction"): the cloud drops
/// batches as `LogCompaction` lets it, between pushes, pulls and snapshots of several
/// devices; a device that stops holding compaction back falls behind the floor and starts
/// again from the snapshot with its own writes; a new device joins. After everything syncs,
/// every device shows what a device that replays the uncompacted log shows, and no batch
/// was dropped that one of the three conditions protects.
@Suite("Compaction")
struct CompactionPropertyTests {
  /// What a server knows of the devices: how far each pulled, when each batch arrived.
  final class Ledger: Sendable {
    struct State {
      var pulled: [String: Int64] = [:]
      var arrivals: [Int64: Date] = [:]
    }
    let state = Mutex(State())
  }

  /// A device's way to the cloud: pushes go to the cloud and, in the same order, to the
  /// uncompacted `mirror`; pulls note the highest place they started after.
  final class Tracked: CloudStore {
    let cloud: InMemoryCloud
    let mirror: InMemoryCloud
    let name: String
    let ledger: Ledger
    let clock: TickingClock
    var location: String { cloud.location }
    var identifier: String { cloud.identifier }

    init(_ cloud: InMemoryCloud, mirror: InMemoryCloud, name: String, ledger: Ledger, clock: TickingClock) {
      self.cloud = cloud
      self.mirror = mirror
      self.name = name
      self.ledger = ledger
      self.clock = clock
    }

    func push(_ batch: ChangeBatch) throws -> Int64 {
      let sequence = try cloud.push(batch)
      _ = try mirror.push(batch)
      let now = clock.now()
      ledger.state.withLock { state in if state.arrivals[sequence] == nil { state.arrivals[sequence] = now } }
      return sequence
    }
    func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
      let entries = try cloud.pull(after: sequence, limit: limit)
      let latest = try cloud.latestSequence()
      ledger.state.withLock { state in
        if sequence <= latest { state.pulled[name] = max(state.pulled[name, default: 0], sequence) }
      }
      return entries
    }
    func latestSequence() throws -> Int64 { try cloud.latestSequence() }
    func register(_ device: CloudDevice) throws { try cloud.register(device) }
    func devices() throws -> [CloudDevice] { try cloud.devices() }
    func snapshotPage(_ page: Int, at position: Int64?) throws -> SnapshotPage? { try cloud.snapshotPage(page, at: position) }
  }

  /// The three conditions in their plain form, batch by batch: why each batch from the
  /// cloud's floor up to `through` may not go (empty: all may).
  static func protections(
    through: Int64, cloud: InMemoryCloud, holding: [String], ledger: Ledger, retainedFrom cutoff: Date
  ) -> [String] {
    let state = ledger.state.withLock { $0 }
    var problems: [String] = []
    let from = cloud.compactedThrough + 1
    guard through >= from else { return [] }
    for sequence in from...through {
      if sequence > cloud.snapshotPosition { problems.append("batch \(sequence) is after the newest snapshot") }
      for device in holding where state.pulled[device, default: 0] < sequence {
        problems.append("batch \(sequence): device \(device) has not pulled it")
      }
      if let arrived = state.arrivals[sequence], arrived >= cutoff { problems.append("batch \(sequence) is inside the retention window") }
    }
    return problems
  }

  /// The rule's input as a server reads it: the devices that hold compaction back, their
  /// pulled places, the first batch inside the window.
  static func input(cloud: InMemoryCloud, holding: [String], ledger: Ledger, retainedFrom cutoff: Date) -> LogCompaction.Input {
    let state = ledger.state.withLock { $0 }
    let floor = cloud.compactedThrough
    let latest = (try? cloud.latestSequence()) ?? floor
    let retained = latest > floor ? (floor + 1...latest).first { state.arrivals[$0].map { $0 >= cutoff } ?? true } : nil
    return LogCompaction.Input(
      compactedThrough: floor, snapshotPositions: cloud.snapshotPosition > 0 ? [cloud.snapshotPosition] : [],
      devices: holding.map { LogCompaction.Device(name: $0, pulledThrough: state.pulled[$0, default: 0]) }, firstRetained: retained)
  }

  /// Each device's live records against those of a device that replays the uncompacted log.
  static func differences(_ world: SyncWorld, mirror: InMemoryCloud) throws -> [String] {
    let store = try TestBackend.memory.makeStore(clock: world.clock.now)
    let replay = SyncEngine(store: store, cloud: mirror, deviceName: "replay")
    _ = try replay.sync()
    let expected = try SyncWorld.liveState(store)
    return try world.devices.compactMap { device in
      let shown = try SyncWorld.liveState(device.store)
      guard shown != expected else { return nil }
      let missing = Set(expected).subtracting(shown).count, extra = Set(shown).subtracting(expected).count
      return "\(device.name) differs from the replayed log: \(missing) record(s) missing, \(extra) extra"
    }
  }

  @Test(arguments: RandomizedConvergenceTests.seeds)
  func compactedDevicesShowTheReplayedLog(seed: UInt64) throws {
    var schedule = RandomizedConvergenceTests.Schedule(random: SeededGenerator(seed: seed))
    let cloud = InMemoryCloud(identifier: "cloud-\(seed)")
    let mirror = InMemoryCloud(identifier: "mirror-\(seed)")
    let ledger = Ledger()
    let names = (0..<(2 + Int(schedule.next() % 3))).map { "D\($0)" } + ["late"]
    let world = try SyncWorld(
      .memory, devices: [], cloud: cloud, pullPageSize: 1 + Int(schedule.next() % 8), pushBatchSize: 1 + Int(schedule.next() % 50),
      seed: seed)
    world.cloudOfDevice = { [clock = world.clock] name in Tracked(cloud, mirror: mirror, name: name, ledger: ledger, clock: clock) }
    for name in names { try world.addDevice(name) }
    // Every device, the late one included, has a place in the log before the schedule starts.
    _ = try world["D0"].library.categories.getOrCreate("First shelf \(seed)")
    for name in names { try world.sync(name) }
    let retention: TimeInterval = 0.5 + Double(schedule.next() % 3)
    var holding = names
    var problems: [String] = []
    var compactions = 0
    func compact() {
      let cutoff = world.clock.now().addingTimeInterval(-retention)
      let floor = LogCompaction.floor(Self.input(cloud: cloud, holding: holding, ledger: ledger, retainedFrom: cutoff))
      problems += Self.protections(through: floor.through, cloud: cloud, holding: holding, ledger: ledger, retainedFrom: cutoff)
      if cloud.compact(through: floor.through) > 0 { compactions += 1 }
    }
    for step in 0..<1_200 {
      // From a third of the way on, "late" no longer holds compaction back (its token was
      // revoked); whenever it syncs again it may be behind the floor.
      if step == 400 { holding.removeAll { $0 == "late" } }
      switch schedule.next() % 100 {
      case 0, 1:
        _ = try cloud.takeSnapshot(rules: ChangeRules(now: world.clock.now()), changesPerPage: 1 + Int(schedule.next() % 40))
      case 2, 3, 4:
        compact()
      default:
        do {
          try RandomizedConvergenceTests.work(schedule.pick(world.devices), world, &schedule)
        } catch is RepositoryError {}
      }
    }
    // The late device writes offline while the others sync past it and the log is compacted.
    world.offline.insert("late")
    _ = try world["late"].library.categories.getOrCreate("Late shelf \(seed)")
    _ = try world["D0"].library.categories.getOrCreate("Final shelf \(seed)")
    // Until a round moves nothing: every other device then pulled to the log's end.
    world.offline = ["late"]
    try world.syncUntilQuiet(maxRounds: 12)
    world.clock.advance(milliseconds: Int64(retention * 1_000) + 1)
    _ = try cloud.takeSnapshot(rules: ChangeRules(now: world.clock.now()), changesPerPage: 9)
    compact()
    #expect(compactions >= 1, "seed \(seed): nothing was compacted")
    world.offline = []
    let late = try world.sync("late")
    #expect(late.restartedFromSnapshot, "seed \(seed): the late device was not behind the floor")
    let fresh = try world.sync(try world.addDevice("new"))
    #expect(fresh.snapshotPosition != nil, "seed \(seed): the new device did not start from the snapshot")
    try world.syncUntilQuiet(maxRounds: 12)
    problems += try world.invariantViolations(schedule.check)
    problems += try Self.differences(world, mirror: mirror)
    #expect(try SyncWorld.liveState(world["new"].store).contains { $0.contains("Late shelf \(seed)") })
    #expect(problems.isEmpty, "seed \(seed): \(problems.count) problems, first \(problems.prefix(5))")
  }

  /// The floor is the highest kept snapshot each condition allows, never below the current
  /// floor, and names the condition that stopped it.
  @Test func theFloorIsTheHighestSnapshotTheThreeConditionsAllow() {
    func floor(at current: Int64 = 0, _ snapshots: [Int64], _ pulled: [String: Int64], retained: Int64? = nil) -> LogCompaction.Floor {
      LogCompaction.floor(
        LogCompaction.Input(
          compactedThrough: current, snapshotPositions: snapshots,
          devices: pulled.map { LogCompaction.Device(name: $0.key, pulledThrough: $0.value) }, firstRetained: retained))
    }
    #expect(floor([600, 900], ["phone": 950], retained: 920) == .init(through: 900, limit: .snapshot))
    #expect(floor([600, 900], ["phone": 900, "tablet": 950]) == .init(through: 900, limit: .device("phone")))
    #expect(floor([600, 900], ["phone": 899]) == .init(through: 600, limit: .snapshot))
    #expect(floor([600, 900], ["phone": 950], retained: 901) == .init(through: 900, limit: .retention))
    #expect(floor([600, 900], ["phone": 950], retained: 600) == .init(through: 0, limit: .retention))
    #expect(floor(at: 700, [600, 900], ["phone": 650]) == .init(through: 700, limit: .device("phone")))
    #expect(floor([], [:]) == .init(through: 0, limit: .snapshot))
    #expect(LogCompaction.bound(.init(compactedThrough: 0, snapshotPositions: [], devices: [], firstRetained: nil)).through == .max)
  }

  /// The check fails on a compaction that ignores one condition: here the devices' pulled
  /// places (condition 2), which drops a batch a device has not pulled.
  @Test func aCompactionThatIgnoresTheDevicesIsCaught() throws {
    let cloud = InMemoryCloud(identifier: "cloud-ignore")
    let mirror = InMemoryCloud(identifier: "mirror-ignore")
    let ledger = Ledger()
    let world = try SyncWorld(.memory, devices: [], cloud: cloud, seed: 3)
    world.cloudOfDevice = { [clock = world.clock] name in Tracked(cloud, mirror: mirror, name: name, ledger: ledger, clock: clock) }
    try world.addDevice("A")
    try world.addDevice("B")
    _ = try world["A"].library.categories.getOrCreate("Produce")
    try world.sync("A")
    try world.sync("B")
    _ = try world["A"].library.categories.getOrCreate("Dairy")
    try world.sync("A")
    try world.sync("A")
    #expect(try cloud.takeSnapshot(rules: ChangeRules(now: world.clock.now())) == 2)
    let cutoff = world.clock.now()
    let honest = LogCompaction.floor(Self.input(cloud: cloud, holding: ["A", "B"], ledger: ledger, retainedFrom: cutoff))
    #expect(honest.through == 0 && honest.limit == .device("B"))
    #expect(Self.protections(through: honest.through, cloud: cloud, holding: ["A", "B"], ledger: ledger, retainedFrom: cutoff).isEmpty)
    let ignoring = LogCompaction.floor(Self.input(cloud: cloud, holding: [], ledger: ledger, retainedFrom: cutoff))
    #expect(ignoring.through == 2)
    let problems = Self.protections(through: ignoring.through, cloud: cloud, holding: ["A", "B"], ledger: ledger, retainedFrom: cutoff)
    #expect(problems == ["batch 2: device B has not pulled it"])
    // And B, behind the floor such a compaction sets, starts again from the snapshot.
    cloud.compact(through: ignoring.through)
    let report = try world.sync("B")
    #expect(report.restartedFromSnapshot)
    #expect(try SyncWorld.liveState(world["B"].store) == SyncWorld.liveState(world["A"].store))
  }

  /// A device behind the floor with writes it has not pushed keeps them: it joins the
  /// snapshot into its states, pulls after it and pushes its own.
  @Test func aDeviceBehindTheFloorKeepsItsOwnWrites() throws {
    let cloud = InMemoryCloud(identifier: "cloud-behind")
    let world = try SyncWorld(.memory, devices: ["A", "B"], cloud: cloud, seed: 5)
    _ = try world["A"].library.categories.getOrCreate("Pantry")
    try world.sync("A")
    try world.sync("B")
    _ = try world["B"].library.categories.getOrCreate("Dairy")
    _ = try world["B"].library.categories.rename("Dairy", to: "Milk and eggs")
    for index in 0..<5 {
      _ = try world["A"].library.categories.getOrCreate("Aisle \(index)")
      try world.sync("A")
    }
    _ = try world["A"].library.categories.rename("Aisle 0", to: "Produce")
    try world.sync("A")
    let position = try cloud.takeSnapshot(rules: ChangeRules(now: world.clock.now()))
    #expect(cloud.compact(through: position) == Int(position))
    #expect(throws: CloudError.compacted(location: "memory", cursor: 0, firstKept: position + 1)) {
      try cloud.pull(after: 0, limit: 10)
    }
    let report = try world.sync("B")
    #expect(report.restartedFromSnapshot && report.exported > 0)
    try world.sync("A")
    let shown = try SyncWorld.liveState(world["A"].store)
    #expect(shown == (try SyncWorld.liveState(world["B"].store)))
    #expect(shown.contains { $0.contains("Milk and eggs") } && shown.contains { $0.contains("Produce") })
    #expect(try world.invariantViolations().isEmpty)
  }
}
