import Foundation
import Model
import Persistence
import PersistenceSQLite
import Synchronization
import TestSupport
import Testing

/// Observed queries, run against every backend: the same values, wakes and endings.
@Suite("Observation conformance", .timeLimit(.minutes(1)))
struct ObservationConformanceTests {
  /// Counts how often an observed query ran.
  final class Runs: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func note() { count.withLock { $0 += 1 } }
  }

  struct Failure: Error, Equatable {}

  static func categoryCount(_ store: any Store, runs: Runs = Runs()) -> StoreObservation<Int> {
    store.observe(StoreRegion(.category)) { reader in
      runs.note()
      return try reader.count(RecordQuery(.category))
    }
  }

  static func insert(_ store: any Store, _ name: String) throws {
    try store.write { try $0.insertRecord(Fixtures.category(name, key: name.lowercased())) }
  }

  @Test(arguments: TestBackend.allCases)
  func firstValueIsTheCurrentOneAndEachCommitOfTheRegionYieldsTheNext(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    try Self.insert(store, "Produce")
    var values = Self.categoryCount(store).makeAsyncIterator()
    #expect(try await values.next() == 1)
    try Self.insert(store, "Dairy")
    #expect(try await values.next() == 2)
    try store.write {
      try $0.tombstoneRecord(.category, id: try #require($0.records(.category, semanticKey: "dairy").first).id, at: Fixtures.epoch)
    }
    #expect(try await values.next() == 1)
  }

  /// Many observers, and commits from several threads at once: every observer reaches the
  /// last value. The consumers commits wake are resumed in batches off the writers' threads
  /// (`Waker`); a wake-up lost between two batches would leave an observer waiting, and the
  /// suite's time limit would fail the test.
  @Test(arguments: TestBackend.allCases)
  func everyObserverReachesTheLastValueWhileSeveralThreadsCommit(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    let observers = 40, writers = 4, writesEach = 25
    let total = writers * writesEach
    let tasks = (0..<observers).map { _ in
      Task {
        for try await count in Self.categoryCount(store) where count == total { return true }
        return false
      }
    }
    DispatchQueue.concurrentPerform(iterations: writers) { writer in
      for index in 0..<writesEach { try? Self.insert(store, "Aisle \(writer) \(index)") }
    }
    #expect(try store.read { try $0.count(RecordQuery(.category)) } == total)
    for task in tasks { #expect(try await task.value) }
  }

  /// A commit of another kind, or of metadata, calls no subscriber of categories; a
  /// commit of categories calls it once; a failed write calls no one.
  @Test(arguments: TestBackend.allCases)
  func commitsOutsideTheRegionAndFailedWritesWakeNoOne(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    let calls = Runs()
    let metadataCalls = Runs()
    let subscription = store.subscribe(to: StoreRegion(.category)) { calls.note() }
    let metadataSubscription = store.subscribe(to: .metadataOnly) { metadataCalls.note() }
    try store.write { try $0.insertRecord(Fixtures.template("Eggs")) }
    try store.write { try $0.setMetadata("1", forKey: "test.value") }
    #expect(throws: Failure.self) {
      try store.write { writer in
        try writer.insertRecord(Fixtures.category("Bakery", key: "bakery"))
        throw Failure()
      }
    }
    try await Task.sleep(for: .milliseconds(60))  // several polls of the SQLite backend
    #expect(calls.value == 0)
    #expect(metadataCalls.value == 1)
    try Self.insert(store, "Produce")
    #expect(calls.value == 1)
    #expect(metadataCalls.value == 1)
    subscription.cancel()
    try Self.insert(store, "Dairy")
    #expect(calls.value == 1)
    _ = metadataSubscription
  }

  /// Commits made while the consumer is busy yield one value, the latest: the query runs
  /// once for the burst, not once per commit.
  @Test(arguments: TestBackend.allCases)
  func aBurstOfCommitsIsCoalescedIntoTheLatestValue(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    let runs = Runs()
    var values = Self.categoryCount(store, runs: runs).makeAsyncIterator()
    #expect(try await values.next() == 0)
    for number in 1...50 { try Self.insert(store, "Aisle \(number)") }
    #expect(try await values.next() == 50)
    #expect(runs.value == 2)
    try Self.insert(store, "Last")
    #expect(try await values.next() == 51)
    #expect(runs.value == 3)
  }

  @Test(arguments: TestBackend.allCases)
  func cancellingTheConsumerEndsTheSequence(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    let seen = Runs()
    let consumer = Task {
      for try await _ in Self.categoryCount(store) { seen.note() }
      return "ended"
    }
    while seen.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
    consumer.cancel()
    #expect(try await consumer.value == "ended")
    try Self.insert(store, "Produce")  // no subscriber is left to call
  }

  @Test(arguments: TestBackend.allCases)
  func aQueryThatThrowsDeliversItsErrorAndEndsTheSequence(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    let observation = store.observe(StoreRegion(.category)) { reader in
      let count = try reader.count(RecordQuery(.category))
      if count == 2 { throw Failure() }
      return count
    }
    var values = observation.makeAsyncIterator()
    #expect(try await values.next() == 0)
    try Self.insert(store, "Produce")
    #expect(try await values.next() == 1)
    try Self.insert(store, "Dairy")
    await #expect(throws: Failure.self) { try await values.next() }
    try Self.insert(store, "Bakery")
    #expect(try await values.next() == nil)
  }

  /// A consumer that never asks holds no queue and does not slow or block the writer.
  @Test(arguments: TestBackend.allCases)
  func anObserverThatNeverReadsDoesNotBlockWriters(_ backend: TestBackend) async throws {
    let store = try backend.makeStore()
    let runs = Runs()
    var values = Self.categoryCount(store, runs: runs).makeAsyncIterator()
    #expect(try await values.next() == 0)
    for number in 1...200 { try Self.insert(store, "Aisle \(number)") }
    #expect(runs.value == 1)
    #expect(try await values.next() == 200)
  }

  /// A write through another connection to the same file (what another process syncing
  /// into it does) wakes the observer through the poll of `PRAGMA data_version`.
  @Test func aCommitOfAnotherConnectionWakesTheObserver() async throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let observed = try SQLiteStore(path: path)
    let other = try SQLiteStore(path: path)
    var values = Self.categoryCount(observed).makeAsyncIterator()
    #expect(try await values.next() == 0)
    try Self.insert(other, "Produce")
    #expect(try await values.next() == 1)
    try other.write { try $0.setMetadata("x", forKey: "test.value") }  // unknown to the poll: wakes everyone
    #expect(try await values.next() == 1)
    try observed.close()
    try other.close()
  }
}
