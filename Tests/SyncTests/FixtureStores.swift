import Foundation
import Model
import PersistenceSQLite
import Repositories
import Sync
import SyncSQLite
import TestSupport
import Testing

/// Two devices and their cloud as files an earlier build wrote, under `Tests/Fixtures/`.
enum FixtureStores {
  /// Copies of the files of `fixture` (`a.sqlite`, `b.sqlite`, `cloud.sqlite`) in a new
  /// directory, opened: the fixture itself is never written.
  static func open(_ fixture: String) throws -> (a: SQLiteStore, b: SQLiteStore, cloud: SQLiteCloud) {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures").appendingPathComponent(fixture)
    let directory = try TemporaryDirectory.make()
    for name in ["a.sqlite", "b.sqlite", "cloud.sqlite"] {
      try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: directory.appendingPathComponent(name))
    }
    return (
      try SQLiteStore(path: directory.appendingPathComponent("a.sqlite").path),
      try SQLiteStore(path: directory.appendingPathComponent("b.sqlite").path),
      try SQLiteCloud(path: directory.appendingPathComponent("cloud.sqlite").path)
    )
  }

  /// The fixture's two devices, A and B, each with a sync engine and a library, on one
  /// clock that ticks forward, through the fixture's cloud.
  static func devices(_ fixture: String) throws -> (stores: [SQLiteStore], engines: [SyncEngine], libraries: [Library]) {
    let (a, b, cloud) = try open(fixture)
    let clock = TickingClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let engines = [("A", a), ("B", b)].map { name, store in
      SyncEngine(store: store, cloud: cloud, deviceName: name, monitor: SyncMonitor(clock: clock.now))
    }
    return ([a, b], engines, [a, b].map { Library(store: $0, now: clock.now) })
  }

  /// What the convergence check finds wrong between the devices' stores.
  static func violations(_ stores: [SQLiteStore]) throws -> [String] {
    ConvergenceCheck().violations(try zip(["A", "B"], stores).map { try ReplicaSnapshot.read($0, $1) })
  }
}

/// Devices whose stores an earlier build wrote go on converging after their first sync
/// converts them: edits, a new record in a merged category, a rename, a meal for a recipe
/// another was merged into.
@Suite("Stores from earlier builds go on converging")
struct FixtureStoreConvergenceTests {
  @Test(arguments: ["earlier-sync", "format4-sync"])
  func devicesGoOnConverging(_ fixture: String) throws {
    let (stores, engines, libraries) = try FixtureStores.devices(fixture)
    let (libraryA, libraryB) = (libraries[0], libraries[1])
    // The merged-away recipe is not shown on its own.
    #expect(try libraryA.recipes.all().map(\.displayName).filter { $0 == "Lasagna" }.isEmpty)
    _ = try libraryA.recipes.update("Carrot Soup", [.cuisine("Moroccan")])
    _ = try libraryB.ingredients.getOrCreate("pear", category: "Produce")
    _ = try libraryA.categories.rename("Produce", to: "Fruit & Veg")
    _ = try libraryB.meals.plan(date: "2024-12-22", mealType: "lunch", recipe: "Ziti")
    for engine in engines + engines { try engine.sync() }

    let problems = try FixtureStores.violations(stores)
    #expect(problems == [], "\(problems)")
    for library in libraries {
      #expect(try library.recipes.find("Carrot Soup")?.recipeCuisine == "Moroccan")
      #expect(try library.meals.meal(date: "2024-12-22", mealType: "lunch").flatMap { $0.recipe } == library.recipes.find("Ziti")?.id)
      #expect(try library.ingredients.find("pear")?.category == library.categories.find("Fruit & Veg")?.id)
      #expect(try library.categories.find("Produce") == nil && library.categories.find("Veg") == nil)
    }
  }
}
