public import Foundation
import Model
public import Persistence
import PersistenceMemory
import Repositories
import Sync

/// One device that pulls whatever bytes it is given as the next entry of its cloud's log
/// and syncs: the fuzz target of the batch decoder, the pull's checks and the join
/// (`forager-fuzz`, and the seeded mutation run in `SyncTests`). A device must never trap,
/// loop or throw on any input: a thrown sync would fail again at every retry. And what it
/// makes of the input must be right: after each input the device's tables equal the
/// reference view of its states (`SyncVerifier`), and an honest observer that pulled the
/// same log shows the same live records, field for field.
///
/// ```swift
/// let harness = try BatchFuzzHarness()
/// try harness.feed(bytes)  // throws when a sync fails or a check finds a difference
/// ```
public final class BatchFuzzHarness {
  let cloud = BytesCloud()
  public let store: any Store
  let engine: SyncEngine
  let library: Library
  let observer: SyncEngine
  private var tick: Int64 = 0

  /// A device with a few records of each kind, synced once, and an observer, on a fixed
  /// clock, each in memory.
  public convenience init() throws {
    try self.init { InMemoryStore(clock: $0) }
  }

  /// A device with a few records of each kind, synced once, and an observer, on a fixed
  /// clock; each store made by `makeStore`.
  public init(makeStore: (@escaping StoreClock) throws -> any Store) throws {
    let start = Date(timeIntervalSince1970: 1_780_000_000)
    let ticks = Ticks(start: start)
    store = try makeStore(ticks.now)
    library = Library(store: store, now: ticks.now, ids: .seeded(7))
    engine = SyncEngine(store: store, cloud: cloud, deviceName: "fuzzed", replicaIDs: .seeded(8))
    observer = SyncEngine(store: try makeStore(ticks.now), cloud: cloud, deviceName: "observer", replicaIDs: .seeded(9))
    _ = try library.categories.getOrCreate("Produce")
    _ = try library.ingredients.getOrCreate("Tomato")
    _ = try library.recipes.create(RecipeDraft(name: "Salad", ingredients: ["2 tomatoes"]))
    _ = try library.meals.plan(date: "2026-06-01", mealType: "dinner", recipe: "Salad")
    try engine.sync()
  }

  /// What a fuzzed input made a device do wrong, though its sync did not throw.
  public struct Finding: Error, CustomStringConvertible {
    public let description: String
  }

  /// Appends `bytes` to the cloud's log as the next batch and syncs the device, then makes
  /// a local write and syncs again (a stamp received must not break the next tick); then
  /// the observer syncs, and both are checked.
  /// - Throws: whatever a sync throws, or a ``Finding``: a device whose tables are not the
  ///   view of its states, or two devices that pulled one log and show different records.
  public func feed(_ bytes: Data) throws {
    cloud.append(bytes)
    try engine.sync()
    tick += 1
    _ = try library.categories.getOrCreate("Aisle \(tick % 50)")
    try engine.sync()
    try observer.sync()
    for (name, device) in [("device", engine), ("observer", observer)] {
      let verification = try SyncVerifier(store: device.store).verify()
      guard verification.isClean else {
        throw Finding(description: "the \(name)'s tables differ from its states' view: \(verification.differences.prefix(3))")
      }
    }
    // A change that waits for the clock may be due on one device and not yet on the other.
    let waiting = try (engine.setAsideChanges() + observer.setAsideChanges()).contains { $0.code == "clock-ahead" }
    guard !waiting else { return }
    for kind in EntityKind.allCases {
      let query = RecordQuery(kind, sort: [])
      let mine = try store.read { try $0.fetch(query) }.sorted { $0.id.uuidString < $1.id.uuidString }
      let theirs = try observer.store.read { try $0.fetch(query) }.sorted { $0.id.uuidString < $1.id.uuidString }
      guard mine == theirs else {
        throw Finding(description: "the device and the observer show different \(kind.rawValue) records after one log")
      }
    }
  }

  /// Batches as honest devices push them: every kind, renames, deletes, merges, lists.
  public static func seeds() throws -> [Data] {
    let start = Date(timeIntervalSince1970: 1_780_000_000)
    let ticks = Ticks(start: start)
    let cloud = BytesCloud()
    var devices: [(Library, SyncEngine)] = []
    for index in 0..<2 {
      let store = InMemoryStore(clock: ticks.now)
      devices.append(
        (
          Library(store: store, now: ticks.now, ids: .seeded(UInt64(20 + index))),
          SyncEngine(store: store, cloud: cloud, deviceName: "seed-\(index)", pushBatchSize: 4, replicaIDs: .seeded(UInt64(30 + index)))
        ))
    }
    let (a, engineA) = devices[0]
    let (b, engineB) = devices[1]
    _ = try a.categories.getOrCreate("Produce")
    _ = try a.tags.getOrCreate("Quick")
    _ = try a.books.getOrCreate(title: "The Wok", author: "Kenji")
    _ = try a.recipes.create(
      RecipeDraft(
        name: "Fried Rice", ingredients: ["2 eggs", "3 cups rice"], instructions: ["Fry.", "Serve."], description: "Quick\nand good",
        prepTime: "PT10M", tags: ["Quick"], book: "The Wok", bookAuthor: "Kenji", page: 12))
    _ = try a.meals.plan(date: "2026-06-02", mealType: "lunch", recipe: "Fried Rice", notes: "leftovers")
    try engineA.sync()
    _ = try b.categories.getOrCreate("produce")
    _ = try b.lists.create("Weekly", week: "2026-W23")
    _ = try b.lists.addItem("milk", quantity: "2 l", to: "Weekly")
    try engineB.sync()
    _ = try a.categories.rename("Produce", to: "Fruit & Veg")
    _ = try a.categories.delete("Fruit & Veg")
    try engineA.sync()
    return cloud.all()
  }
}

/// A clock that moves on a millisecond at each reading.
final class Ticks: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  init(start: Date) { current = start }
  func now() -> Date {
    lock.lock()
    defer { lock.unlock() }
    current.addTimeInterval(0.001)
    return current
  }
}

/// A cloud that keeps batches as bytes and serves them as `ChangeBatchCoding.entry` reads
/// them, so a fuzzed entry reaches the device exactly as a server's page would.
final class BytesCloud: CloudStore, @unchecked Sendable {
  private let lock = NSLock()
  private var log: [Data] = []
  let location = "fuzz"
  let identifier = "fuzz-cloud"

  func append(_ bytes: Data) {
    lock.lock()
    defer { lock.unlock() }
    log.append(bytes)
  }

  func all() -> [Data] {
    lock.lock()
    defer { lock.unlock() }
    return log
  }

  func push(_ batch: ChangeBatch) throws -> Int64 {
    lock.lock()
    defer { lock.unlock() }
    log.append(ChangeBatchCoding.encode(batch))
    return Int64(log.count)
  }

  func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    let log = all()
    let start = Int(max(0, min(sequence, Int64(log.count))))
    let end = start + min(max(0, limit), log.count - start)
    return (start..<end).map { ChangeBatchCoding.entry(sequence: Int64($0 + 1), bytes: log[$0], location: location) }
  }

  func latestSequence() throws -> Int64 { Int64(all().count) }
  func register(_ device: CloudDevice) throws {}
  func devices() throws -> [CloudDevice] { [] }
}
