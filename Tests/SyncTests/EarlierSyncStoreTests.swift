import Foundation
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Sync
import SyncSQLite
import TestSupport
import Testing

/// Stores written by the sync of Forager before the register design (per-record field
/// stamps, redirects, repaired values) open with today's engine: the first sync converts
/// their metadata once, shows the same data, pulls and pushes nothing again, and the
/// devices go on converging.
///
/// The files in `Tests/Fixtures/earlier-sync/` were written by `forager-batch` built at
/// commit 03b9db8 running `make.forager` there (two devices through a SQLite cloud: a
/// rename collision, a recipe merge, a concurrent edit of one field, a deleted template).
@Suite("Stores from the earlier sync")
struct EarlierSyncStoreTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/earlier-sync")

  /// Copies of the fixture files in a new directory, opened.
  static func open() throws -> (a: SQLiteStore, b: SQLiteStore, cloud: SQLiteCloud) {
    let directory = try TemporaryDirectory.make()
    for name in ["a.sqlite", "b.sqlite", "cloud.sqlite"] {
      try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: directory.appendingPathComponent(name))
    }
    return (
      try SQLiteStore(path: directory.appendingPathComponent("a.sqlite").path),
      try SQLiteStore(path: directory.appendingPathComponent("b.sqlite").path),
      try SQLiteCloud(path: directory.appendingPathComponent("cloud.sqlite").path)
    )
  }

  static func metadataKeys(_ store: any Store, _ prefix: String) throws -> [String] {
    try store.read { try $0.metadataKeys(withPrefix: prefix) }
  }

  @Test func convertsOnceKeepsTheDataAndSendsNothingAgain() throws {
    let (a, b, cloud) = try Self.open()
    #expect(try !Self.metadataKeys(a, "sync.stamps/").isEmpty, "the fixture holds the earlier metadata")
    #expect(try !Self.metadataKeys(a, "sync.redirect/").isEmpty)
    let shownBefore = try [a, b].map { try SyncWorld.liveState($0) }
    #expect(shownBefore[0] == shownBefore[1], "the earlier sync had converged")
    let logBefore = try cloud.latestSequence()

    var reports: [SyncEngine.Report] = []
    for (store, name) in [(a, "A"), (b, "B")] {
      reports.append(try SyncEngine(store: store, cloud: cloud, deviceName: name).sync())
    }
    #expect(reports.allSatisfy { $0.exported == 0 && $0.pushedBatches == 0 }, "nothing pushed again: \(reports)")
    #expect(try cloud.latestSequence() == logBefore)
    for store in [a, b] {
      #expect(try SyncWorld.liveState(store) == shownBefore[0], "the same data shown after the conversion")
      #expect(try Self.metadataKeys(store, "sync.stamps/").isEmpty)
      #expect(try Self.metadataKeys(store, "sync.redirect/").isEmpty)
      #expect(try store.read { try $0.metadata(forKey: "sync.format") } == "4")
      #expect(try !Self.metadataKeys(store, "sync.state/").isEmpty)
    }
  }

  @Test func devicesGoOnConverging() throws {
    let (a, b, cloud) = try Self.open()
    let clock = TickingClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let engines = [
      SyncEngine(store: a, cloud: cloud, deviceName: "A", monitor: SyncMonitor(clock: clock.now)),
      SyncEngine(store: b, cloud: cloud, deviceName: "B", monitor: SyncMonitor(clock: clock.now)),
    ]
    let (libraryA, libraryB) = (Library(store: a, now: clock.now), Library(store: b, now: clock.now))
    // The merged-away recipe is not shown on its own.
    #expect(try libraryA.recipes.all().map(\.displayName).filter { $0 == "Lasagna" }.isEmpty)
    _ = try libraryA.recipes.update("Carrot Soup", [.cuisine("Moroccan")])
    _ = try libraryB.ingredients.getOrCreate("pear", category: "Produce")
    _ = try libraryB.meals.plan(date: "2024-12-22", mealType: "lunch", recipe: "Ziti")
    for engine in engines + engines { try engine.sync() }

    let snapshots = try [ReplicaSnapshot.read("A", a), ReplicaSnapshot.read("B", b)]
    #expect(ConvergenceCheck().violations(snapshots) == [])
    for library in [libraryA, libraryB] {
      #expect(try library.recipes.find("Carrot Soup")?.recipeCuisine == "Moroccan")
      #expect(try library.meals.meal(date: "2024-12-22", mealType: "lunch").flatMap { $0.recipe } == library.recipes.find("Ziti")?.id)
      #expect(try library.ingredients.find("pear")?.category == library.categories.find("Produce")?.id)
      #expect(try library.categories.find("Veg") == nil)
    }
  }
}
