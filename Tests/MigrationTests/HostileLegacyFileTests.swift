import Foundation
import GRDB
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// A version-1 file is untrusted: values of the wrong storage class, numbers no kitchen
/// holds and columns the file lacks are left empty and named in the report, and the rest
/// of the file migrates. (GRDB's typed row reads the migration used before trap on a value
/// they cannot convert.)
@Suite struct HostileLegacyFileTests {
  /// The first recipe of a generated file, damaged by `damage`, then migrated.
  func migrateDamagedRecipe(_ damage: String) throws -> (notes: [String], recipe: Recipe, path: String) {
    let (path, _) = try legacyStore(seed: 5, records: 120)
    let queue = try DatabaseQueue(path: path)
    let id = try queue.write { db -> String in
      try db.execute(sql: "UPDATE Recipe SET id = '5F2B9C1E-0000-4000-8000-00000000A11C' WHERE rowid = (SELECT min(rowid) FROM Recipe)")
      try db.execute(sql: damage)
      return "5f2b9c1e-0000-4000-8000-00000000a11c"
    }
    try queue.close()
    let report = try migrator(path).migrate(options())
    let store = try SQLiteStore(path: path)
    defer { try? store.close() }
    let recipe = try #require(try Library(store: store).recipes.find(id))
    return (report.stageA?.notes ?? [], recipe, path)
  }

  @Test func valuesOfTheWrongStorageClassAreLeftEmptyAndNamed() throws {
    let migrated = try migrateDamagedRecipe(
      "UPDATE Recipe SET dateCreated = 'yesterday', servings = 'four', prepTime = 12.5, title = x'FF00FE41' WHERE id LIKE '5F2B9C1E%'")
    #expect(
      migrated.notes.filter { $0.hasPrefix("Recipe.") } == [
        "Recipe.dateCreated: 1 value was not a number and was left empty",
        "Recipe.prepTime: 1 value was not a number and was left empty",
        "Recipe.servings: 1 value was not a number and was left empty",
        "Recipe.title: 1 value was not text and was left empty",
      ])
    #expect(migrated.recipe.meta.createdAt == migrationTime)
    #expect(migrated.recipe.prepTime == nil)
    #expect(migrated.recipe.recipeYield == nil)
  }

  @Test func numbersNoKitchenHoldsAreLeftEmptyAndNamed() throws {
    let migrated = try migrateDamagedRecipe(
      """
      UPDATE Recipe SET prepTime = 9223372036854775807, cookTime = -9223372036854775808, lastUsed = 1e300,
        dateCreated = 86400.0, usageCount = 7.0 WHERE id LIKE '5F2B9C1E%'
      """)
    #expect(
      migrated.notes.filter { $0.hasPrefix("Recipe.") } == [
        "Recipe.cookTime: 1 value was out of range and was left empty",
        "Recipe.lastUsed: 1 value was out of range and was left empty",
        "Recipe.prepTime: 1 value was out of range and was left empty",
      ])
    #expect(migrated.recipe.prepTime == nil && migrated.recipe.cookTime == nil && migrated.recipe.totalTime == nil)
    #expect(migrated.recipe.lastUsed == nil)
    // A whole number stored as a real is still that number; a day after 2001-01-01 is kept.
    #expect(migrated.recipe.usageCount == 7)
    #expect(migrated.recipe.meta.createdAt == Date(timeIntervalSinceReferenceDate: 86400))
  }

  @Test func aColumnTheFileLacksReadsAsEmpty() throws {
    let migrated = try migrateDamagedRecipe("ALTER TABLE Recipe DROP COLUMN sourceURL")
    #expect(migrated.recipe.sourceURL == nil)
    #expect(migrated.recipe.sourceType == .manual)
    #expect(migrated.notes.allSatisfy { !$0.hasPrefix("Recipe.") })
  }

  /// The same file twice, one damaged: only the damaged value differs.
  @Test func anUndamagedFileNotesNothingOfItsColumns() throws {
    let (path, _) = try legacyStore(seed: 5, records: 120)
    let report = try migrator(path).migrate(options())
    #expect(report.stageA?.notes.contains { $0.contains(": 1 value") || $0.contains(" values were ") } == false)
  }
}
