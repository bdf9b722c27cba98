import Foundation
import Model
import Persistence
import Repositories
import Synchronization
import TestSupport
import Testing

@testable import Sync

/// A cloud that passes calls to another and can be told to fail a push or to run
/// something inside a pull, for the sync's work on other threads.
final class InterposedCloud: CloudStore {
  let base: InMemoryCloud
  private let state = Mutex(State())
  private struct State {
    var failPushNumber: Int?
    var pushes = 0
    var pulls: [Int64] = []
  }
  /// Run (once) inside the first pull, before it answers.
  let duringFirstPull = Mutex<(@Sendable () throws -> Void)?>(nil)

  init(_ base: InMemoryCloud) { self.base = base }

  var location: String { "interposed" }
  var identifier: String { base.identifier }

  /// Makes the `number`-th push from now on fail (1 is the next).
  func failPush(_ number: Int) { state.withLock { $0.failPushNumber = $0.pushes + number } }
  var pullPositions: [Int64] { state.withLock { $0.pulls } }

  func push(_ batch: ChangeBatch) throws -> Int64 {
    let fails = state.withLock { state in
      state.pushes += 1
      return state.pushes == state.failPushNumber
    }
    if fails { throw CloudError.unavailable(location: location, reason: "push refused by the test") }
    return try base.push(batch)
  }

  func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    state.withLock { $0.pulls.append(sequence) }
    let interposed = duringFirstPull.withLock { work in
      defer { work = nil }
      return work
    }
    try interposed?()
    return try base.pull(after: sequence, limit: limit)
  }

  func latestSequence() throws -> Int64 { try base.latestSequence() }
  func register(_ device: CloudDevice) throws { try base.register(device) }
  func devices() throws -> [CloudDevice] { try base.devices() }
}

/// A store whose `held`-th write waits until it is let through: a sync's stamping (its
/// second write, after the one that checks the cloud) held until something else happened.
final class GatedStore: Store {
  let base: any Store
  private let gate = DispatchSemaphore(value: 0)
  private let writes = Mutex(0)
  let held: Int

  init(_ base: any Store, holding held: Int) {
    self.base = base
    self.held = held
  }

  var location: String { base.location }
  var clock: StoreClock { base.clock }
  func open() { gate.signal() }
  func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try base.read(body) }
  func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription {
    base.subscribe(to: region, onCommit: onCommit)
  }

  func write<T>(origin: ChangeOrigin, _ body: (any StoreWriter) throws -> T) throws -> T {
    let number = writes.withLock { count in
      count += 1
      return count
    }
    if number == held { gate.wait() }
    return try base.write(origin: origin, body)
  }
}

@Suite struct SyncPipelineTests {
  static func device(_ name: String, _ store: any Store, _ cloud: any CloudStore, seed: UInt64, pushBatchSize: Int = 500) -> SyncEngine {
    SyncEngine(store: store, cloud: cloud, deviceName: name, pushBatchSize: pushBatchSize, replicaIDs: .seeded(seed))
  }

  /// Batches are sent while the next is read from the store; the pushed position still
  /// moves past a batch only once the cloud took it, so a push refused half-way leaves
  /// exactly the unsent changes pending, and the next sync sends them once.
  @Test(arguments: TestBackend.allCases)
  func aPushRefusedHalfWayLeavesTheRestPendingAndSendsItOnce(_ backend: TestBackend) throws {
    let cloud = InterposedCloud(InMemoryCloud(identifier: "pipeline"))
    let store = try backend.makeStore()
    let phone = Self.device("phone", store, cloud, seed: 1, pushBatchSize: 2)
    let library = Library(store: store)
    for name in ["Produce", "Dairy", "Bakery", "Pantry", "Frozen"] { _ = try library.categories.getOrCreate(name) }
    cloud.failPush(2)
    #expect(throws: CloudError.self) { try phone.sync() }
    #expect(try cloud.base.latestSequence() == 1, "the first batch was taken, the second refused, the third never sent")
    #expect(try phone.pendingChangeCount() == 3)

    let report = try phone.sync()
    #expect(report.exported == 3)
    #expect(try cloud.base.latestSequence() == 3)
    #expect(try phone.pendingChangeCount() == 0)
    let laptopStore = try backend.makeStore()
    try Self.device("laptop", laptopStore, cloud.base, seed: 2).sync()
    #expect(try SyncWorld.liveState(laptopStore) == SyncWorld.liveState(store))
    #expect(try Library(store: laptopStore).categories.all().count == 5)
  }

  /// The first page is fetched while the outbox is stamped. When another engine on the
  /// same store pulls meanwhile, the fetched page no longer follows the store's token: it
  /// is dropped and the page after the new token is fetched, so nothing is pulled twice
  /// and the token never moves back.
  @Test(arguments: TestBackend.allCases)
  func aPageFetchedBeforeAnotherEngineMovedTheTokenIsNotUsed(_ backend: TestBackend) throws {
    let base = InMemoryCloud(identifier: "pipeline")
    let writerStore = try backend.makeStore()
    _ = try Library(store: writerStore).categories.getOrCreate("Produce")
    try Self.device("writer", writerStore, base, seed: 1).sync()

    let cloud = InterposedCloud(base)
    let store = try backend.makeStore()
    // The first engine's stamping waits until the second engine, started by the first
    // fetch, has pulled: the token has moved by the time the first engine reads it.
    let gated = GatedStore(store, holding: 2)
    let first = Self.device("phone", gated, cloud, seed: 2)
    let second = Self.device("phone again", store, base, seed: 2)
    cloud.duringFirstPull.withLock {
      $0 = {
        defer { gated.open() }
        _ = try second.sync()
      }
    }
    let report = try first.sync()
    #expect(report.pulledBatches == 0, "the other engine pulled the batch; this one pulls after it")
    #expect(cloud.pullPositions == [0, 1], "the page after 0 was fetched ahead, then the page after the new token")
    #expect(try Library(store: store).categories.all().map(\.displayName) == ["Produce"])
  }
}

/// Work on other threads gives what the same work on this one gives.
@Suite struct BackgroundWorkTests {
  @Test(arguments: [0, 1, 255, 256, 257, 1_000, 10_007])
  func aParallelMapIsTheMapInOrder(count: Int) {
    let items = (0..<count).map { $0 &* 2_654_435_761 }
    #expect(items.parallelMap { String($0, radix: 16) } == items.map { String($0, radix: 16) })
  }

  struct Refused: Error {}

  @Test func aBackgroundTaskGivesItsValueOrItsError() throws {
    #expect(try BackgroundTask { 6 * 7 }.value() == 42)
    #expect(throws: Refused.self) { try BackgroundTask<Int> { throw Refused() }.value() }
  }
}
