import Foundation
import GRDB
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// Schema v4 → v5 (stores, a list's store, pantry amounts, planned servings): a table and
/// columns added, no row rewritten, whether a store opens the file or `migrate` upgrades it.
@Suite struct StoresUpgradeTests {
  /// A file in v4's layout: today's store with some data, then v5's table, columns and
  /// indexes taken out and the version set back to 4.
  static func versionFourFile() throws -> String {
    let path = try TemporaryDirectory.make().appendingPathComponent("v4.sqlite").path
    let library = Library(store: try SQLiteStore(path: path), now: { Fixtures.epoch })
    _ = try library.categories.getOrCreate("Produce")
    _ = try library.ingredients.getOrCreate("apples", category: "Produce")
    _ = try library.lists.create("Week", week: "2024-W50")
    _ = try library.lists.addItem("3 apples", to: "Week")
    try library.store.close()
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          DROP TABLE groceryStore;
          DROP INDEX weeklyList_store;
          ALTER TABLE weeklyList DROP COLUMN store;
          ALTER TABLE ingredientTemplate DROP COLUMN onHandAmount;
          ALTER TABLE plannedMeal DROP COLUMN servings;
          ALTER TABLE recipeIngredient DROP COLUMN "group";
          ALTER TABLE groceryListItem DROP COLUMN planAmount;
          PRAGMA user_version = 4;
          """)
    }
    return path
  }

  static func columns(_ path: String, _ table: String) throws -> [String] {
    try DatabaseQueue(path: path).read { try $0.columns(in: table).map(\.name) }
  }

  @Test func openingAVersionFourFileAddsStoresAndKeepsItsRows() throws {
    let path = try Self.versionFourFile()
    #expect(try !Self.columns(path, "weeklyList").contains("store"))
    #expect(try StoreMigrator(path: path).version().description.contains("no stores or pantry amounts yet"))
    let store = try SQLiteStore(path: path, clock: { Fixtures.epoch })
    #expect(try WeekIdentityUpgradeTests.userVersion(path) == 6)
    #expect(try Self.columns(path, "weeklyList").contains("store"))
    #expect(try Self.columns(path, "ingredientTemplate").contains("onHandAmount"))
    #expect(try Self.columns(path, "plannedMeal").contains("servings"))
    let library = Library(store: store, now: { Fixtures.epoch })
    #expect(try library.lists.shoppingList("Week").aisles.flatMap(\.lines).map(\.amountText) == ["3"])
    _ = try library.stores.getOrCreate("Corner shop")
    _ = try library.lists.setStore(of: "Week", to: "Corner shop")
    _ = try library.pantry.set("apples", amount: "2")
    #expect(try library.lists.shoppingList("Week").aisles.flatMap(\.lines).map(\.amountText) == ["1"])
    // The upgrade changed the layout, not the data: nothing was logged for sync to push.
    #expect(try store.changeLog().filter { $0.origin == .migration }.isEmpty)
  }

  @Test func migrateRunsStageDWithItsReport() throws {
    let path = try Self.versionFourFile()
    let report = try StoreMigrator(path: path).migrate(MigrationOptions(makeBackup: false))
    #expect(report.fromVersion == 4 && report.toVersion == 6 && report.addedStores)
    #expect(report.lines.contains("stage D (v4 → v5): stores, pantry amounts and planned servings added"))
    #expect(try WeekIdentityUpgradeTests.userVersion(path) == 6)
    #expect(try StoreMigrator(path: path).migrate(MigrationOptions(makeBackup: false)).isNoOp)
  }
}
