import Foundation
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Sync
import TestSupport
import Testing

/// Two devices whose v3 stores hold two "Weekly" lists of 2024-W50 (each made one offline,
/// then they synced: `Tests/Fixtures/weekly-lists-v3/`, written by a v3 build). Each store
/// is upgraded when it opens, at the migration's fixed stamps, so both write the same keys
/// and the same merges; the next sync replicates them and the devices go on converging.
@Suite("Weekly lists of v3 stores after the upgrade")
struct WeeklyListUpgradeSyncTests {
  @Test func upgradedDevicesShowOneListPerWeekAndNameAndGoOnConverging() throws {
    let (stores, engines, libraries) = try FixtureStores.devices("weekly-lists-v3")
    for engine in engines + engines { try engine.sync() }
    #expect(try FixtureStores.violations(stores) == [])
    #expect(try SyncWorld.liveState(stores[0]) == SyncWorld.liveState(stores[1]))
    for library in libraries {
      #expect(
        try library.lists.all().map { "\($0.weekIdentifier) \($0.displayName)" } == [
          "2024-W51 Weekly", "2024-W50 COSTCO", "2024-W50 Weekly",
        ])
      let items = try library.lists.items(of: "2024-W50 Weekly").map { "\($0.displayName) \($0.quantity ?? "-") \($0.isCompleted)" }
      #expect(Set(items) == ["milk 2 l true", "eggs 6 false", "milk 1 l false", "butter - false"])
    }
    // The merged lists are one entity: adding to it and completing it apply everywhere.
    _ = try libraries[1].lists.addItem("bread", to: "2024-W50 weekly")
    _ = try libraries[0].lists.check("milk", on: "2024-W50 Weekly")
    for engine in engines + engines { try engine.sync() }
    #expect(try FixtureStores.violations(stores) == [])
    for library in libraries {
      let items = try library.lists.items(of: "2024-W50 Weekly")
      #expect(items.count == 5)
      #expect(items.filter { $0.displayName == "milk" }.allSatisfy { $0.isCompleted })
    }
    // A device that joins from the whole log shows what the others show.
    let newcomer = try SQLiteStore(path: TemporaryDirectory.make().appendingPathComponent("c.sqlite").path)
    _ = try SyncEngine(store: newcomer, cloud: engines[0].cloud, deviceName: "C").sync()
    #expect(try SyncWorld.liveState(newcomer) == SyncWorld.liveState(stores[0]))
  }
}
