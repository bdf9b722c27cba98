import Foundation
import GRDB
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// Schema v3 → v4 (weekly lists keyed by ISO week and name) on files a v3 build wrote:
/// `Tests/Fixtures/weekly-lists-v3/`, made by `make.forager` there (two devices that each
/// made a "Weekly" list for 2024-W50 offline, synced; device A also holds two "Costco" lists
/// of that week). Opening such a file upgrades it; `migrate` does the same and reports it.
@Suite struct WeekIdentityUpgradeTests {
  /// A copy of the fixture's file `name` (the fixture itself is never written).
  static func copy(_ name: String) throws -> String {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/weekly-lists-v3/\(name)")
    let target = try TemporaryDirectory.make().appendingPathComponent(name)
    try FileManager.default.copyItem(at: source, to: target)
    return target.path
  }

  static func userVersion(_ path: String) throws -> Int {
    try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? -1 }
  }

  /// The weekly lists a v3 file holds, read with SQL, as "week name" per live row.
  static func liveListsInFile(_ path: String) throws -> [String] {
    try DatabaseQueue(path: path).read {
      try String.fetchAll($0, sql: "SELECT weekIdentifier || ' ' || displayName FROM weeklyList WHERE deletedAt IS NULL ORDER BY 1")
    }
  }

  @Test func theFixtureHoldsDuplicateListsAtV3() throws {
    let path = try Self.copy("a.sqlite")
    #expect(try Self.userVersion(path) == 3)
    #expect(
      try Self.liveListsInFile(path) == ["2024-W50 COSTCO", "2024-W50 Costco", "2024-W50 Weekly", "2024-W50 weekly", "2024-W51 Weekly"])
  }

  @Test func openingAV3FileKeysItsListsAndMergesAWeeksListsOfOneName() throws {
    let path = try Self.copy("a.sqlite")
    let listsBefore = try DatabaseQueue(path: path).read {
      try String.fetchAll($0, sql: "SELECT id FROM weeklyList WHERE deletedAt IS NULL AND displayName IN ('Weekly', 'weekly') ORDER BY id")
    }
    let store = try SQLiteStore(path: path, clock: { migrationTime })
    #expect(try Self.userVersion(path) == 6)
    let library = Library(store: store, now: { migrationTime })
    let lists = try library.lists.all()
    #expect(lists.map { "\($0.weekIdentifier) \($0.displayName)" } == ["2024-W51 Weekly", "2024-W50 COSTCO", "2024-W50 Weekly"])
    #expect(lists.allSatisfy { $0.listKey == SemanticKeyOfList.key($0) })
    // The keeper is the smallest id; every item of both copies is on it, each as it was.
    let weekly = try #require(lists.first { $0.weekIdentifier == "2024-W50" && $0.displayName == "Weekly" })
    #expect(weekly.id.uuidString.lowercased() == listsBefore.first)
    let items = try library.lists.items(of: weekly.id.uuidString)
    #expect(
      Set(items.map { "\($0.displayName) \($0.quantity ?? "-") \($0.isCompleted)" }) == [
        "milk 2 l true", "eggs 6 false", "milk 1 l false", "butter - false",
      ])
    #expect(try library.lists.find("2024-W50 costco")?.displayName == "COSTCO")
    // Counts are those of the merged store, and the merge waits for the next sync as an edge.
    #expect(try library.counts()[.weeklyList] == 3)
    #expect(try store.read { try $0.pendingMerges() }.filter { $0.kind == .weeklyList }.count == 2)
    #expect(try store.changeLog().filter { $0.kind == .weeklyList && $0.origin == .migration }.count >= 5)
    // The constraint holds from now on, and the store is at v4 for good: opening again changes nothing.
    #expect(throws: Error.self) {
      try store.write {
        try $0.insertRecord(
          WeeklyList(meta: Fixtures.meta(), displayName: "Costco", weekIdentifier: "2024-W50", listKey: "2024-W50|costco").record)
      }
    }
    let dump = try store.dump()
    let reopened = try SQLiteStore(path: path, clock: { migrationTime })
    #expect(try reopened.dump() == dump)
  }

  @Test func migrateReportsStageCAndItsMergesAndADryRunWritesNothing() throws {
    let path = try Self.copy("a.sqlite")
    #expect(try migrator(path).version() == .forager(3))
    let dry = try migrator(path).dryRun(options())
    #expect(try Self.userVersion(path) == 3)
    #expect(dry.fromVersion == 3 && dry.toVersion == 6 && dry.keyedWeeklyLists)
    #expect(dry.dedup?.merges.map(\.key).sorted() == ["2024-W50|costco", "2024-W50|weekly"])
    #expect(dry.lines.contains("stage C (v3 → v4): weekly lists keyed by week and name"))
    let real = try migrator(path).migrate(options(backup: true))
    #expect(real.dedup == dry.dedup)
    #expect(real.backupPath == path + ".v3.backup")
    #expect(try Self.userVersion(path) == 6)
    #expect(try migrator(path).migrate(options()).isNoOp)
  }

  @Test func aLegacyFileReachesV4WithItsListsKeyed() throws {
    let (path, _) = try legacyStore(seed: 24)
    let report = try migrator(path).migrate(options())
    #expect(report.toVersion == 6 && report.keyedWeeklyLists)
    let store = try SQLiteStore(path: path)
    let lists = try Library(store: store).lists.all()
    #expect(!lists.isEmpty)
    #expect(lists.allSatisfy { $0.listKey == SemanticKeyOfList.key($0) })
    #expect(Set(lists.map(\.listKey)).count == lists.count)
  }
}

/// The key a list's week and name give, computed here without the repositories.
enum SemanticKeyOfList {
  static func key(_ list: WeeklyList) -> String? { list.record.keyOfItsName }
}
