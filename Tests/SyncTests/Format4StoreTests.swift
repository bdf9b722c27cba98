import Foundation
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Sync
import SyncSQLite
import TestSupport
import Testing

/// Stores written by the sync of sync format 4, which kept each record's state and each
/// key's holders as metadata entries (`sync.state/…`, `sync.keys/…`), open with today's
/// engine: the first sync moves the states into the store's sync states with the keys they
/// hold indexed, shows the same data, pulls and pushes nothing again, and the devices go on
/// converging.
///
/// The files in `Tests/Fixtures/format4-sync/` were written by `forager-batch` built at
/// commit 6d72b20 running `make.forager` there (two devices through a SQLite cloud: a
/// rename collision, so one key held by two records, a recipe merge, a concurrent edit of
/// one field, a deleted template).
@Suite("Stores of sync format 4")
struct Format4StoreTests {
  static func open() throws -> (a: SQLiteStore, b: SQLiteStore, cloud: SQLiteCloud) { try FixtureStores.open("format4-sync") }

  /// The metadata entries under `prefix`, with their values.
  static func entries(_ store: any Store, _ prefix: String) throws -> [String: String] {
    try store.read { reader in try reader.metadata(forKeys: reader.metadataKeys(withPrefix: prefix)) }
  }

  @Test func theStatesMoveOnceTheDataStaysAndNothingIsSentAgain() throws {
    let (a, b, cloud) = try Self.open()
    let stored = try [a, b].map { try Self.entries($0, "sync.state/") }
    let keys = try [a, b].map { try Self.entries($0, "sync.keys/") }
    #expect(stored.allSatisfy { $0.count > 10 }, "the fixture holds format 4's states")
    #expect(keys.allSatisfy { $0["sync.keys/category/produce"]?.count == 72 }, "and a key held by two records")
    #expect(try [a, b].allSatisfy { try $0.read { try $0.metadata(forKey: "sync.format") } == "4" })
    let shownBefore = try [a, b].map { try SyncWorld.liveState($0) }
    #expect(shownBefore[0] == shownBefore[1], "the format 4 sync had converged")
    let logBefore = try cloud.latestSequence()

    var reports: [SyncEngine.Report] = []
    for (store, name) in [(a, "A"), (b, "B")] {
      reports.append(try SyncEngine(store: store, cloud: cloud, deviceName: name).sync())
    }
    #expect(reports.allSatisfy { $0.exported == 0 && $0.pushedBatches == 0 && $0.imported == 0 }, "nothing sent again: \(reports)")
    #expect(try cloud.latestSequence() == logBefore)
    for (index, store) in [a, b].enumerated() {
      #expect(try SyncWorld.liveState(store) == shownBefore[0], "the same data shown after the conversion")
      // Every state moved as it was written, and no metadata entry of format 4 is left.
      let moved = try store.syncStates().map { ("sync.state/" + $0.key, $0.value) }
      #expect(Dictionary(uniqueKeysWithValues: moved) == stored[index])
      #expect(try Self.entries(store, "sync.state/").isEmpty && Self.entries(store, "sync.keys/").isEmpty)
      #expect(try store.read { try $0.metadata(forKey: "sync.format") } == "5")
      // Each key is held by the records format 4's index listed under it.
      for (name, ids) in keys[index] {
        let parts = name.dropFirst("sync.keys/".count).split(separator: "/", maxSplits: 1).map(String.init)
        let kind = try #require(EntityKind(rawValue: parts[0]))
        let holders = try store.read { try $0.syncStateHolders(kind, keys: [parts[1]])[parts[1]] ?? [] }
        #expect(
          Set(holders.map { $0.uuidString.lowercased() })
            == Set(
              stride(from: 0, to: ids.count, by: 36).map {
                String(ids.dropFirst($0).prefix(36))
              }), "\(name)")
      }
    }
  }
}
