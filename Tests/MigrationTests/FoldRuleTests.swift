import Foundation
import GRDB
import Migration
import Model
import TestSupport
import Testing

/// The dedup step's fold rules, one group per kind written into a file at v2 by hand: what
/// the keeper ends with, what the report says was dropped, and the keeper's change-log entry.
@Suite struct FoldRuleTests {
  static let keeper = "00000000-0000-4000-8000-000000000001"
  static let first = "00000000-0000-4000-8000-000000000002"
  static let second = "00000000-0000-4000-8000-000000000003"

  /// A generated file taken to v2 (before dedup), with the rows `sql` adds.
  private func fileAtV2(adding sql: (String, String) -> [String]) throws -> String {
    let (path, _) = try legacyStore(seed: 5, records: 300)
    var stageA = migrator(path)
    stageA.stopsAfterStageA = true
    _ = try stageA.migrate(options(target: 2))
    try DatabaseQueue(path: path).write { db in
      let recipes = try Row.fetchAll(db, sql: "SELECT id FROM recipe WHERE deletedAt IS NULL ORDER BY id LIMIT 2")
      try #require(recipes.count == 2)
      for statement in sql(recipes[0]["id"], recipes[1]["id"]) { try db.execute(sql: statement) }
    }
    return path
  }

  private func row(_ path: String, _ table: String, _ id: String) throws -> Row? {
    try DatabaseQueue(path: path).read { db in try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE id = ?", arguments: [id]) }
  }

  @Test func aTemplateGroupFoldsFlagsCountsDatesListsAndFirstValues() throws {
    let columns =
      "(id, createdAt, updatedAt, deletedAt, ownerID, sharingScope, displayName, canonicalName, aliases, ingredientKind, isStaple, usageCount, lastUsed, gramsPerCup)"
    let path = try fileAtV2 { _, _ in
      [
        "INSERT INTO ingredientTemplate \(columns) VALUES ('\(Self.keeper)', 50, 60, NULL, 'local', 'private', 'Zz fold', 'zz fold', '[\"a\",\"b\"]', 'other', 0, 3, 100, NULL)",
        "INSERT INTO ingredientTemplate \(columns) VALUES ('\(Self.second)', 45, 65, NULL, 'local', 'private', 'zz fold', 'zz fold', '[\"d\"]', 'herb', 0, 2, 200, 99.0)",
        "INSERT INTO ingredientTemplate \(columns) VALUES ('\(Self.first)', 40, 70, NULL, 'local', 'private', 'ZZ fold', 'zz fold', '[\"b\",\"c\"]', 'spice', 1, 3, 300, 120.5)",
      ]
    }
    let report = try migrator(path).migrate(options(target: 2))
    let merge = try #require(report.dedup?.merges.first { $0.key == "zz fold" })
    #expect(merge.kind == .ingredientTemplate)
    #expect(merge.keeper.id.uuidString.lowercased() == Self.keeper && merge.keeper.name == "Zz fold")
    #expect(merge.losers.map { $0.id.uuidString.lowercased() } == [Self.first, Self.second])
    #expect(merge.losers.map(\.name) == ["ZZ fold", "zz fold"])
    // The keeper has a kind of its own (both losers' are dropped); no weight, so it takes the
    // first loser's, and the second loser's is dropped.
    #expect(merge.dropped == ["ingredientKind: spice", "ingredientKind: herb", "gramsPerCup: 99"])

    let kept = try #require(try row(path, "ingredientTemplate", Self.keeper))
    #expect(kept["aliases"] as String == "[\"a\",\"b\",\"c\",\"d\"]")
    #expect(kept["ingredientKind"] as String == "other")
    #expect(kept["isStaple"] as Int64 == 1)
    #expect(kept["usageCount"] as Int64 == 8)  // equal counts add up too
    #expect(kept["lastUsed"] as Double == 300)
    #expect(kept["gramsPerCup"] as Double == 120.5)
    #expect(kept["createdAt"] as Double == 40 && kept["updatedAt"] as Double == 70)
    #expect(kept["deletedAt"] as Double? == nil)
    for loser in [Self.first, Self.second] { #expect(try row(path, "ingredientTemplate", loser)?["deletedAt"] as Double? != nil) }

    let log = try DatabaseQueue(path: path).read { db in
      try Row.fetchAll(
        db, sql: "SELECT operation, fields, origin FROM forager_changes WHERE id = ? ORDER BY sequence", arguments: [Self.keeper])
    }
    #expect(log.map { $0["operation"] as String } == ["update"])
    #expect(log.first?["fields"] as String? == "[\"aliases\",\"gramsPerCup\",\"isStaple\",\"lastUsed\",\"usageCount\"]")
    #expect(log.first?["origin"] as String? == "migration")
    // Each merge waits for the next sync as a pending merge (PendingMerge).
    let merges = try DatabaseQueue(path: path).read { db in
      try String.fetchAll(
        db, sql: "SELECT key || '=' || value FROM forager_metadata WHERE key IN (?, ?)",
        arguments: [
          "merge.pending/ingredientTemplate/\(Self.first)/\(Self.keeper)", "merge.pending/ingredientTemplate/\(Self.second)/\(Self.keeper)",
        ])
    }
    #expect(merges.count == 2 && merges.allSatisfy { $0.hasSuffix("=migration") })
  }

  @Test func aPlannedMealThatLosesItsSlotNamesItsRecipeInTheKeepersNotes() throws {
    let columns = "(id, createdAt, updatedAt, deletedAt, ownerID, sharingScope, date, mealType, slotKey, recipe, notes)"
    var titles: [String] = []
    let path = try fileAtV2 { soup, stew in
      [
        "INSERT INTO plannedMeal \(columns) VALUES ('\(Self.keeper)', 1, 1, NULL, 'local', 'private', '2099-01-01', 'dinner', 'zz-slot', '\(soup)', 'bring bread')",
        "INSERT INTO plannedMeal \(columns) VALUES ('\(Self.first)', 1, 1, NULL, 'local', 'private', '2099-01-01', 'dinner', 'zz-slot', '\(stew)', 'early')",
        "INSERT INTO plannedMeal \(columns) VALUES ('\(Self.second)', 1, 1, NULL, 'local', 'private', '2099-01-01', 'dinner', 'zz-slot', '\(soup)', NULL)",
      ]
    }
    titles = try DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT displayName FROM recipe WHERE deletedAt IS NULL ORDER BY id LIMIT 2")
    }
    let report = try migrator(path).migrate(options(target: 2))
    let merge = try #require(report.dedup?.merges.first { $0.key == "zz-slot" })
    #expect(merge.dropped == ["recipe: \(titles[1]) (kept in notes)", "notes: early"])
    let kept = try #require(try row(path, "plannedMeal", Self.keeper))
    #expect(kept["notes"] as String == "bring bread\nAlso planned for this slot: \(titles[1])")
    let soupID: String = try #require(
      try DatabaseQueue(path: path).read { db in
        try String.fetchOne(db, sql: "SELECT id FROM recipe WHERE deletedAt IS NULL ORDER BY id LIMIT 1")
      })
    #expect(kept["recipe"] as String == soupID)
  }

  /// A keeper with no notes takes the note lines alone; one with no recipe takes the first
  /// loser's, and only a loser planning something else is noted.
  @Test func aKeeperWithoutRecipeOrNotesTakesTheFirstLosersRecipe() throws {
    let columns = "(id, createdAt, updatedAt, deletedAt, ownerID, sharingScope, date, mealType, slotKey, recipe, notes)"
    let path = try fileAtV2 { soup, stew in
      [
        "INSERT INTO plannedMeal \(columns) VALUES ('\(Self.keeper)', 1, 1, NULL, 'local', 'private', '2099-01-02', 'lunch', 'zz-slot-2', NULL, NULL)",
        "INSERT INTO plannedMeal \(columns) VALUES ('\(Self.first)', 1, 1, NULL, 'local', 'private', '2099-01-02', 'lunch', 'zz-slot-2', '\(soup)', NULL)",
        "INSERT INTO plannedMeal \(columns) VALUES ('\(Self.second)', 1, 1, NULL, 'local', 'private', '2099-01-02', 'lunch', 'zz-slot-2', '\(stew)', NULL)",
      ]
    }
    let titles = try DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT displayName FROM recipe WHERE deletedAt IS NULL ORDER BY id LIMIT 2")
    }
    let report = try migrator(path).migrate(options(target: 2))
    let merge = try #require(report.dedup?.merges.first { $0.key == "zz-slot-2" })
    #expect(merge.dropped == ["recipe: \(titles[1]) (kept in notes)"])
    let kept = try #require(try row(path, "plannedMeal", Self.keeper))
    #expect(kept["notes"] as String == "Also planned for this slot: \(titles[1])")
    #expect(kept["recipe"] as String? != nil)
  }
}
