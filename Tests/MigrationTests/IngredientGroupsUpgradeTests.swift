import Foundation
import GRDB
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// Schema v5 → v6 (a recipe line's ingredient group): one column added, no row rewritten,
/// whether a store opens the file or `migrate` upgrades it.
@Suite struct IngredientGroupsUpgradeTests {
  /// A file in v5's layout: today's store with a recipe, then the `group` column taken out
  /// and the version set back to 5.
  static func versionFiveFile() throws -> String {
    let path = try TemporaryDirectory.make().appendingPathComponent("v5.sqlite").path
    let library = Library(store: try SQLiteStore(path: path), now: { Fixtures.epoch })
    _ = try library.recipes.create(RecipeDraft(name: "Pancakes", ingredients: ["2 eggs", "1 cup flour"]))
    try library.store.close()
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql:
          "ALTER TABLE recipeIngredient DROP COLUMN \"group\"; ALTER TABLE groceryListItem DROP COLUMN planAmount; PRAGMA user_version = 5;"
      )
    }
    return path
  }

  @Test func openingAVersionFiveFileAddsGroupsAndKeepsItsRows() throws {
    let path = try Self.versionFiveFile()
    #expect(try !StoresUpgradeTests.columns(path, "recipeIngredient").contains("group"))
    #expect(try StoreMigrator(path: path).version().description.contains("no ingredient groups or plan amounts yet"))
    let store = try SQLiteStore(path: path, clock: { Fixtures.epoch })
    #expect(try WeekIdentityUpgradeTests.userVersion(path) == 6)
    #expect(try StoresUpgradeTests.columns(path, "recipeIngredient").contains("group"))
    #expect(try StoresUpgradeTests.columns(path, "groceryListItem").contains("planAmount"))
    let library = Library(store: store, now: { Fixtures.epoch })
    let lines = try library.recipes.details("Pancakes").lines.map(\.ingredient)
    #expect(lines.map(\.rawLine) == ["2 eggs", "1 cup flour"] && lines.allSatisfy { $0.group == nil })
    // The upgrade changed the layout, not the data: nothing was logged for sync to push.
    #expect(try store.changeLog().filter { $0.origin == .migration }.isEmpty)
  }

  @Test func migrateRunsStageEWithItsReport() throws {
    let path = try Self.versionFiveFile()
    let report = try StoreMigrator(path: path).migrate(MigrationOptions(makeBackup: false))
    #expect(report.fromVersion == 5 && report.toVersion == 6 && report.addedIngredientGroups && !report.addedStores)
    #expect(report.lines.contains("stage E (v5 → v6): ingredient groups and plan amounts added"))
    #expect(try WeekIdentityUpgradeTests.userVersion(path) == 6)
    #expect(try StoreMigrator(path: path).migrate(MigrationOptions(makeBackup: false)).isNoOp)
  }
}
