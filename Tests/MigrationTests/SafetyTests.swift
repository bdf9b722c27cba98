import Foundation
import Migration
import Model
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

/// Backups, dry runs, idempotence and crash safety: a migration never leaves a file in
/// between two versions and never changes anything twice.
@Suite struct SafetyTests {
  @Test func backupIsAnExactCopyOfTheFileBeforeMigration() throws {
    let (path, _) = try legacyStore(seed: 21)
    let before = try checksum(path)
    let report = try migrator(path).migrate(options(backup: true))
    let backup = try #require(report.backupPath)
    #expect(backup == path + ".v1.backup")
    #expect(try checksum(backup) == before)
    #expect(try migrator(backup).version() == .forager(1))
  }

  @Test func dryRunReportsTheMigrationAndWritesNothing() throws {
    let (path, _) = try legacyStore(seed: 22)
    let before = try checksum(path)
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let report = try migrator(path).dryRun(options(backup: true))
    #expect(report.isDryRun)
    #expect(report.toVersion == 6)
    #expect(report.backupPath == nil)
    #expect((report.dedup?.mergedRecordCount ?? 0) > 0)
    #expect(report.lines.first?.contains("would migrate") == true)
    #expect(try checksum(path) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == filesBefore)
    // The real migration does what the dry run said.
    let real = try migrator(path).migrate(options())
    #expect(real.dedup == report.dedup)
    #expect(real.stageA == report.stageA)
  }

  @Test func migratingAgainChangesNothing() throws {
    let (path, _) = try legacyStore(seed: 23)
    _ = try migrator(path).migrate(options())
    let store = try SQLiteStore(path: path)
    let dump = try store.dump(), log = try store.changeLog()
    let again = try migrator(path).migrate(options(backup: true))
    #expect(again.isNoOp)
    #expect(again.backupPath == nil)
    #expect(again.lines == ["\(path): already at schema v6; nothing to do"])
    #expect(try store.dump() == dump)
    #expect(try store.changeLog() == log)
  }

  @Test func stoppingAtVersionTwoThenDedupingAgainChangesNothing() throws {
    let (path, _) = try legacyStore(seed: 24)
    let first = try migrator(path).migrate(options(target: 2))
    #expect(first.toVersion == 2)
    #expect((first.dedup?.mergedRecordCount ?? 0) > 0)
    #expect(try migrator(path).version() == .forager(2))
    let before = try tableDump(path)
    let second = try migrator(path).migrate(options(target: 2))
    #expect(second.dedup?.merges == [])
    #expect(second.stageA == nil)
    #expect(try tableDump(path) == before)
    // And v2 → v3 → v4 from there.
    let last = try migrator(path).migrate(options())
    #expect(last.fromVersion == 2 && last.toVersion == 6 && last.addedConstraints)
  }

  @Test func twoMigrationsOfEqualFilesWriteEqualStores() throws {
    let (first, _) = try legacyStore(seed: 25)
    let (second, _) = try legacyStore(seed: 25)
    #expect(try checksum(first) == checksum(second))
    _ = try migrator(first).migrate(options())
    _ = try migrator(second).migrate(options())
    #expect(try SQLiteStore(path: first).dump() == SQLiteStore(path: second).dump())
  }

  @Test(arguments: ["stage A (v1 → v2)", "dedup", "stage B (v2 → v3)", "stage C (v3 → v4)", "stage D (v4 → v5)", "stage E (v5 → v6)"])
  func aFailureInsideAStageLeavesTheStoreAtTheVersionBefore(stage: String) throws {
    let (path, _) = try legacyStore(seed: 26)
    let step = try #require(StoreMigrator.Step(rawValue: stage))
    // What the file holds when the failing step starts: the original, or the result of
    // the steps before it, committed by a clean run on an equal file.
    let (other, _) = try legacyStore(seed: 26)
    var partial = migrator(other)
    switch step {
    case .stageA: break
    case .dedup:
      partial.failBeforeCommitting = .dedup
      _ = try? partial.migrate(options())
    case .stageB:
      _ = try partial.migrate(options(target: 2))
    case .stageC:
      _ = try partial.migrate(options(target: 3))
    case .stageD:
      _ = try partial.migrate(options(target: 4))
    case .stageE:
      _ = try partial.migrate(options(target: 5))
    }
    let reference = try tableDump(other)

    var failing = migrator(path)
    failing.failBeforeCommitting = step
    #expect(throws: MigrationError.self) { try failing.migrate(options()) }
    #expect(try tableDump(path) == reference)
    #expect(
      try migrator(path).version() == .forager(step == .stageA ? 1 : step == .stageC ? 3 : step == .stageD ? 4 : step == .stageE ? 5 : 2))
    if step == .dedup {
      // Nothing of the failed dedup remains: no tombstones, no deletes in the change log.
      #expect(!reference.contains { $0.contains("deletedAt:") && !$0.contains("deletedAt:NULL") })
      #expect(!reference.contains { $0.contains("operation:\"delete\"") })
    }
    if step == .stageA { #expect(try checksum(path) == checksum(other)) }
    // The file refuses to open as a current store (a v3 file would be upgraded), and the
    // next run finishes the job.
    if step != .stageC && step != .stageD && step != .stageE { #expect(throws: StoreError.self) { try SQLiteStore(path: path) } }
    try verifyMigrationFromAnyVersion(path)
  }

  @Test func opensOfOldStoresSayWhatVersionTheyAreAndWhatToRun() throws {
    let (path, _) = try legacyStore(seed: 27)
    #expect(try migrator(path).version().description.contains("run `migrate --dry-run`"))
    do {
      _ = try SQLiteStore(path: path)
      Issue.record("a v1 store opened")
    } catch let error as StoreError {
      #expect("\(error)".contains("v1"))
      #expect("\(error)".contains("migrate"))
    }
    let foreign = try TemporaryDirectory.make().appendingPathComponent("other.sqlite").path
    _ = try SQLiteStore(path: foreign).dump()  // creates the file with the current schema
    #expect(try migrator(foreign).version() == .forager(6))
    #expect(try migrator(foreign).migrate().isNoOp)
    #expect(throws: MigrationError.self) { try migrator(foreign + ".missing").migrate() }
  }
}

/// Finishes a migration from whatever version the file is at, and checks the store opens.
func verifyMigrationFromAnyVersion(_ path: String) throws {
  let report = try migrator(path).migrate(options())
  #expect(report.toVersion == 6)
  #expect(try danglingReferences(SQLiteStore(path: path)) == [])
}
