import Foundation
import Migration
import Model
import Persistence
import PersistenceSQLite
import Testing

/// Stage B adds the unique constraints only when every live record of a unique kind has
/// its key and none share one; otherwise it refuses and names the records.
@Suite struct StageBRefusalTests {
  @Test func blankNamesStopStageBWithAReportNamingTheRecords() throws {
    let (path, _) = try legacyStore(seed: 31, blankNames: 2)
    do {
      _ = try migrator(path).migrate(options(backup: true))
      Issue.record("stage B did not refuse")
    } catch MigrationError.stageBRefused(let refusedPath, let refusal, let backup) {
      #expect(refusedPath == path)
      #expect(refusal.unkeyed.count == 4)
      #expect(Set(refusal.unkeyed.map(\.kind)) == [.category, .tag])
      #expect(refusal.duplicates.isEmpty)
      #expect(backup == path + ".v1.backup")
      let message = "\(MigrationError.stageBRefused(path: refusedPath, refusal: refusal, backupPath: backup))"
      for record in refusal.unkeyed { #expect(message.contains(record.id.uuidString.lowercased())) }
      #expect(message.contains("--name-unnamed"))
    }
    // Stages A and dedup committed: the store is at v2, deduplicated.
    #expect(try migrator(path).version() == .forager(2))
    let dryRun = try migrator(path).dryRun(options())
    #expect(dryRun.refusal?.unkeyed.count == 4)
    #expect(dryRun.lines.contains { $0.contains("would refuse") })
    // Naming them lets stage B through.
    let report = try migrator(path).migrate(options(nameUnnamed: true))
    #expect(report.toVersion == 6)
    #expect(report.named.count == 4)
    #expect(report.named.allSatisfy { $0.name.hasPrefix("Unnamed ") })
    _ = try SQLiteStore(path: path)
  }

  @Test func duplicatesLeftAtVersionTwoAreNamedByStageB() throws {
    let (path, _) = try legacyStore(seed: 32)
    _ = try migrator(path).migrate(options(target: 2))
    // A device still on v2 creates another "Produce" without the unique constraint.
    let store = try SQLiteStoreAtVersionTwo(path: path)
    let refusal = try #require(try store.refusal())
    #expect(refusal.duplicates.count == 1)
    #expect(refusal.duplicates.first?.records.count == 2)
    #expect(refusal.lines.first?.contains("duplicates of category key 'produce'") == true)
    // `migrate` dedups first, so it goes through and reports the merge.
    let report = try migrator(path).migrate(options())
    #expect(report.dedup?.merges.map(\.key) == ["produce"])
    #expect(report.toVersion == 6)
  }
}

/// Writes a duplicate into a v2 file the way a v2 device would, and asks stage B's check.
struct SQLiteStoreAtVersionTwo {
  let path: String

  init(path: String) throws {
    self.path = path
    try StoreMigrator.withVersionTwoWriter(path: path) { writer in
      let produce = try writer.fetch(RecordQuery(.category, filters: [.equals("normalizedName", .text("produce"))]))
      #expect(produce.count == 1)
      let id = try #require(UUID(uuidString: "ffffffff-0000-4000-8000-000000000001"))
      try writer.insertRecord(
        Category(meta: RecordMetadata(id: id, createdAt: migrationTime), displayName: "PRODUCE", normalizedName: "produce").record)
    }
  }

  func refusal() throws -> StageBRefusal? { try StoreMigrator.stageBRefusal(path: path) }
}
