import Foundation
import GRDB
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// A migrated file's live-record counter equals its rows: the migration's writers do not
/// count, so the migration drops any counter the file holds and the store that opens the
/// file next counts the rows once.
@Suite struct LiveCountMigrationTests {
  @Test func aMigratedStoreCountsItsLiveRecords() throws {
    let (path, _) = try legacyStore(seed: 11, records: 600)
    let report = try migrator(path).migrate(options())
    #expect(report.dedup?.mergedRecordCount ?? 0 > 0)
    let store = try SQLiteStore(path: path)
    #expect(try store.liveCountMismatches() == [])
    #expect(try Library(store: store).counts()[.category] ?? 0 > 0)
  }

  /// A counter in a file at v2 (written there by anything) is stale once the dedup step
  /// has tombstoned the losers; it does not survive the migration.
  @Test func aCounterInTheFileBeforeTheMigrationIsRebuiltAfterIt() throws {
    let (path, _) = try legacyStore(seed: 7, records: 600)
    var stageA = migrator(path)
    stageA.stopsAfterStageA = true
    _ = try stageA.migrate(options(target: 2))
    try DatabaseQueue(path: path).write { db in
      try db.execute(sql: "CREATE TABLE forager_live_counts (kind TEXT PRIMARY KEY NOT NULL, live INTEGER NOT NULL) WITHOUT ROWID")
      try db.execute(
        sql: "INSERT INTO forager_live_counts (kind, live) SELECT 'category', COUNT(*) FROM category WHERE deletedAt IS NULL")
    }
    let report = try migrator(path).migrate(options())
    #expect(report.dedup?.groupsByKind[.category] ?? 0 > 0)
    #expect(try SQLiteStore(path: path).liveCountMismatches() == [])
  }
}
