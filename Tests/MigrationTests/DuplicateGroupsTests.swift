import Foundation
import GRDB
import LegacyStoreSupport
import Migration
import Model
import TestSupport
import Testing

/// `LegacyStoreGenerator(duplicateGroups:)`: exactly that many more groups of duplicates
/// on top of the same realistic data, all merged by the migration.
@Suite struct DuplicateGroupsTests {
  @Test func extraDuplicateGroupsAreAllMergedWithNothingDangling() throws {
    let directory = try TemporaryDirectory.make()
    let plainPath = directory.appendingPathComponent("plain.sqlite").path
    let bulkPath = directory.appendingPathComponent("bulk.sqlite").path
    let plain = try LegacyStoreGenerator(seed: 21, recordCount: 600, timeZone: newYork).write(to: plainPath)
    let bulk = try LegacyStoreGenerator(seed: 21, recordCount: 600, timeZone: newYork, duplicateGroups: 400).write(to: bulkPath)
    #expect(bulk.total >= plain.total + 2 * 400)

    // The realistic rows are the same, in the same order; the groups come after them.
    let before = try LegacySnapshot(path: plainPath), after = try LegacySnapshot(path: bulkPath)
    for table in LegacySchema.tableNames {
      let old = (before.rows[table] ?? []).map(\.description), new = (after.rows[table] ?? []).map(\.description)
      #expect(Array(new.prefix(old.count)) == old, "\(table)")
    }

    // Per kind, one live record per distinct key, every relationship kept and live.
    let plainReport = try migrator(plainPath).migrate(options())
    let report = try verifyMigration(bulkPath)
    let plainGroups = plainReport.dedup?.groupsByKind ?? [:], groups = report.dedup?.groupsByKind ?? [:]
    for kind in [EntityKind.category, .tag, .ingredientTemplate, .plannedMeal] {
      #expect((groups[kind] ?? 0) - (plainGroups[kind] ?? 0) == 100, "\(kind)")
    }
    // Tags and templates of the groups are named by recipes and list items: re-pointed.
    #expect((report.dedup?.repointed ?? 0) > (plainReport.dedup?.repointed ?? 0))
  }
}
