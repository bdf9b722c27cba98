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
  static func open() throws -> (a: SQLiteStore, b: SQLiteStore, cloud: SQLiteCloud) { try FixtureStores.open("earlier-sync") }

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
      #expect(try store.read { try $0.metadata(forKey: "sync.format") } == "5")
      #expect(try !store.syncStates().isEmpty)
    }
  }
}
