import Foundation
import Model
import Persistence
import PersistenceMemory
import PersistenceSQLite
import Repositories
import Sync
import SyncMemory
import TestSupport
import Testing

@Suite("Sync resilience")
struct SyncResilienceTests {
  @Test(arguments: TestBackend.allCases)
  func anInterruptedPullResumesWithoutLossOrDoubleApply(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B", "C"], pullPageSize: 1, pushBatchSize: 3)
    for index in 0..<12 { _ = try world["A"].library.categories.getOrCreate("Category \(index)") }
    _ = try world["A"].library.categories.rename("Category 0", to: "First")
    try world.sync("A")
    #expect(try world.cloud.latestSequence() == 5)

    #expect(throws: SyncInterrupted.self) { try world["B"].engine.sync(interruptAfterPulledPages: 2) }
    #expect(try world["B"].library.categories.all().count == 6)
    try world.sync("B")
    #expect(try world["B"].library.categories.all().count == 12)
    #expect(try world["B"].library.categories.find("First") != nil)
    try world.sync("C")
    #expect(try SyncWorld.liveState(world["B"].store) == SyncWorld.liveState(world["C"].store))
  }

  @Test(arguments: TestBackend.allCases)
  func applyingTheSameBatchTwiceChangesNothing(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.ingredients.getOrCreate("tomato", category: "Produce", aliases: ["love apple"])
    try world.sync("A")
    try world.sync("B")
    let before = try SyncWorld.liveState(world["B"].store)
    // B wrote nothing itself: the rows the pull wrote leave no change-log entry to push back.
    #expect(try world["B"].store.changeLog().isEmpty)
    // Every row with its times, and every record's replicated state.
    let rows = try world["B"].store.dump()
    let states = try Self.states(of: world["B"].store)
    #expect(!states.isEmpty)
    // Replay every batch A ever pushed, as a re-sent push would.
    let entries = try world.cloud.pull(after: 0, limit: 100)
    let replayCloud = InMemoryCloud()
    for entry in entries {
      _ = try replayCloud.push(
        ChangeBatch(id: entry.batch.id + "-again", replica: entry.batch.replica, schemaVersion: 3, changes: entry.batch.changes))
    }
    let replay = SyncEngine(store: world["B"].store, cloud: replayCloud, deviceName: "B")
    try replay.sync()
    #expect(try SyncWorld.liveState(world["B"].store) == before)
    #expect(try world["B"].store.dump() == rows)
    #expect(try Self.states(of: world["B"].store) == states)
  }

  /// The store's replicated states by record.
  static func states(of store: any Store) throws -> [String: String] { try store.syncStates() }

  @Test func aPushResentAfterALostAnswerIsKeptOnce() throws {
    let cloud = InMemoryCloud()
    let batch = ChangeBatch(id: "r:1-3", replica: "r", schemaVersion: 3, changes: [])
    #expect(try cloud.push(batch) == 1)
    #expect(try cloud.push(batch) == 1)
    #expect(try cloud.latestSequence() == 1)
  }

  @Test func stampsAndTheOutboxSurviveARestart() throws {
    let directory = try TemporaryDirectory.make()
    let clock = TickingClock()
    let cloud = InMemoryCloud()
    let pathA = directory.appendingPathComponent("a.sqlite").path
    do {
      let store = try SQLiteStore(path: pathA, clock: clock.now)
      _ = try Library(store: store, now: clock.now).categories.getOrCreate("Produce")
      try SyncEngine(store: store, cloud: cloud, deviceName: "A").sync()
      _ = try Library(store: store, now: clock.now).categories.rename("Produce", to: "Fruit & Veg")
    }
    let reopened = try SQLiteStore(path: pathA, clock: clock.now)
    let engine = SyncEngine(store: reopened, cloud: cloud, deviceName: "A")
    #expect(try engine.pendingChangeCount() == 1)
    let replica = try engine.replicaID()
    try engine.sync()
    let storeB = InMemoryStore(clock: clock.now)
    try SyncEngine(store: storeB, cloud: cloud, deviceName: "B").sync()
    #expect(try Library(store: storeB).categories.all().map(\.displayName) == ["Fruit & Veg"])
    #expect(try engine.replicaID() == replica)
    #expect(try cloud.devices().map(\.name) == ["A", "B"])
  }

  @Test(arguments: TestBackend.allCases)
  func theMonitorCountsAndKeepsTheLastHundredEvents(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    for index in 0..<60 {
      _ = try world["A"].library.categories.getOrCreate("C\(index)")
      try world.sync("A")
      try world.sync("B")
    }
    let status = world["B"].engine.monitor.status
    #expect(status.imports == 60)
    #expect(status.syncs == 60)
    #expect(status.events.count == SyncMonitor.eventLimit)
    #expect(world["A"].engine.monitor.status.exports == 60)
  }
}
