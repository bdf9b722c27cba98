import Foundation
import GRDB
import LegacyStoreSupport
import Migration
import Model
import Normalization
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// Generated version-1 stores migrated to v3: one record per semantic key, every
/// relationship kept and live, every user-visible value on the keeper.
@Suite struct LegacyToCurrentTests {
  @Test func smallLegacyStoreMigratesToCurrentWithOneRecordPerKey() throws {
    let (path, summary) = try legacyStore(seed: 11, records: 600)
    #expect(summary.total >= 500)
    let report = try verifyMigration(path)
    #expect(report.dedup?.groupsByKind[.category] ?? 0 >= 1)
    #expect(report.dedup?.groupsByKind[.ingredientTemplate] ?? 0 >= 1)
    #expect(report.dedup?.groupsByKind[.tag] ?? 0 >= 1)
    #expect(report.dedup?.groupsByKind[.plannedMeal] ?? 0 >= 1)
    #expect(report.stageA?.inferredMealTypes ?? 0 > 0)
  }

  @Test(.timeLimit(.minutes(10)))
  func fiftyThousandRecordStoreMigratesToCurrent() throws {
    let (path, summary) = try legacyStore(seed: 50, records: 50_000)
    #expect(summary.total >= 48_000)
    let clock = ContinuousClock()
    var report: MigrationReport?
    let elapsed = try clock.measure { report = try verifyMigration(path) }
    print("50k: \(summary.total) v1 rows; migrated and verified in \(elapsed); \(report?.dedup?.mergedRecordCount ?? 0) records merged")
  }

  @Test func repositoriesWorkOnTheMigratedStoreAndFindTheMergedKeeper() throws {
    let (path, _) = try legacyStore(seed: 3)
    let old = try LegacySnapshot(path: path)
    _ = try migrator(path).migrate(options())
    let store = try SQLiteStore(path: path)
    let library = Library(store: store)
    let producers = old.rows["Category"]?.filter { SemanticKey.normalizedName(($0["name"] as String?) ?? "") == "produce" } ?? []
    #expect(producers.count >= 2)
    let keeper = producers.compactMap { ($0["id"] as String?).flatMap(UUID.init(uuidString:)) }.min(by: UUID.keeperOrder)
    let produce = try library.categories.getOrCreate("  PRODUCE")
    #expect(produce.id == keeper)
    #expect(try library.categories.all().filter { $0.normalizedName == "produce" }.count == 1)
    #expect(try library.duplicates(of: [.category, .tag, .ingredientTemplate, .plannedMeal]).isEmpty)
    // Unique constraints hold: a raw duplicate is refused with a typed error.
    let duplicate = Category(meta: RecordMetadata(id: UUID(), createdAt: migrationTime), displayName: "Produce", normalizedName: "produce")
    #expect(throws: StoreError.self) { try store.write { try $0.insertRecord(duplicate.record) } }
    let egg = try library.ingredients.getOrCreate("Eggs")
    #expect(try library.ingredients.find("egg")?.id == egg.id)
  }

  @Test func mealInstantsAreReadInTheStatedTimeZone() throws {
    let (path, _) = try legacyStore(seed: 5)
    let old = try LegacySnapshot(path: path)
    let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? .current
    _ = try migrator(path).migrate(MigrationOptions(timeZone: tokyo, makeBackup: false))
    let store = try SQLiteStore(path: path)
    let keys = Set(try liveRecords(store, .plannedMeal).values.compactMap(\.semanticKey))
    #expect(keys == old.slotKeys(zone: tokyo))
    #expect(keys != old.slotKeys(zone: newYork))
    #expect(try store.read { try $0.metadata(forKey: "migration.timeZone") } == "Asia/Tokyo")
  }
}

/// Migrates the v1 file at `path` to v4 and checks it against what the v1 file held.
@discardableResult
func verifyMigration(_ path: String) throws -> MigrationReport {
  let old = try LegacySnapshot(path: path)
  let report = try migrator(path).migrate(options())
  #expect(report.fromVersion == 1)
  #expect(report.toVersion == 6)
  #expect(try migrator(path).version() == .forager(6))
  let store = try SQLiteStore(path: path)

  // One live record per distinct key, for every unique kind.
  let categories = try liveRecords(store, .category), tags = try liveRecords(store, .tag)
  let templates = try liveRecords(store, .ingredientTemplate), meals = try liveRecords(store, .plannedMeal)
  #expect(categories.count == old.categoryKeys.count)
  #expect(Set(categories.values.compactMap(\.semanticKey)) == old.categoryKeys)
  #expect(tags.count == old.tagKeys.count)
  #expect(Set(tags.values.compactMap(\.semanticKey)) == old.tagKeys)
  #expect(templates.count == old.templateKeys.count)
  #expect(Set(templates.values.compactMap(\.semanticKey)) == old.templateKeys)
  #expect(meals.count == old.slotKeys(zone: newYork).count)
  #expect(Set(meals.values.compactMap(\.semanticKey)) == old.slotKeys(zone: newYork))
  // Kinds without identity keep every record; so do the lists, whose generated names differ per week.
  let recipes = try liveRecords(store, .recipe), lines = try liveRecords(store, .recipeIngredient)
  let lists = try liveRecords(store, .weeklyList), items = try liveRecords(store, .groceryListItem)
  let plans = try liveRecords(store, .mealPlan)
  #expect(recipes.count == old.count("Recipe"))
  #expect(lines.count == old.ingredientLines.count)
  #expect(lists.count == old.count("WeeklyList"))
  #expect(items.count == old.count("GroceryListItem"))
  #expect(plans.count == old.count("MealPlan"))

  // No relationship dangling …
  #expect(try danglingReferences(store) == [])

  // … and none lost: each old relationship leads to the record (or the keeper of the key)
  // it led to before.
  func uuid(_ text: String?) -> UUID? { text.flatMap(UUID.init(uuidString:)) }
  let tagNames = Dictionary(
    (old.rows["Tag"] ?? []).compactMap { row in uuid(row["id"]).map { ($0, (row["name"] as String?) ?? "") } },
    uniquingKeysWith: { a, _ in a })
  var oldTagKeys: [UUID: Set<String>] = [:]
  for row in old.rows["RecipeTag"] ?? [] {
    guard let recipe = uuid(row["recipe"]), let tag = uuid(row["tag"]), let name = tagNames[tag] else { continue }
    oldTagKeys[recipe, default: []].insert(SemanticKey.normalizedName(name))
  }
  for row in old.rows["Recipe"] ?? [] {
    guard let id = uuid(row["id"]), let recipe = recipes[id] else {
      Issue.record("recipe \(row["id"] as String? ?? "") missing")
      continue
    }
    // Every user-visible field of a recipe (recipes are never merged).
    #expect(recipe["displayName"].text == collapsed((row["title"] as String?) ?? ""))
    #expect(recipe["isFavorite"] == .bool(((row["isFavorite"] as Int64?) ?? 0) != 0))
    #expect(recipe["usageCount"] == .integer((row["usageCount"] as Int64?) ?? 0))
    #expect(recipe["sourceURL"].text == (row["sourceURL"] as String?))
    let instructions = ((row["instructions"] as String?) ?? "").split(whereSeparator: \.isNewline).map(String.init)
    #expect(recipe["recipeInstructions"].textListValue == instructions)
    let prep = (row["prepTime"] as Int64?) ?? 0
    #expect(recipe["prepTime"].text.map { $0.hasPrefix("PT") } ?? (prep == 0))
    let linked = Set(recipe["tags"].references.compactMap { tags[$0]?.semanticKey })
    #expect(linked == oldTagKeys[id, default: []])
  }
  for row in old.ingredientLines {
    guard let id = uuid(row["id"]), let line = lines[id] else { continue }
    #expect(line["recipe"].reference == uuid(row["recipe"]))
    let template = line["template"].reference.flatMap { templates[$0] }
    #expect(template?.semanticKey == SemanticKey.canonicalIngredientName((row["name"] as String?) ?? ""))
    #expect(line["unit"].text == (row["unit"] as String?))
    #expect(line["notes"].text == (row["notes"] as String?))
  }
  let oldTemplateNames = Dictionary(
    ((old.rows["IngredientTemplate"] ?? []) + (old.rows["GroceryItem"] ?? [])).compactMap { row in
      uuid(row["id"]).map { ($0, (row["name"] as String?) ?? "") }
    },
    uniquingKeysWith: { a, _ in a }
  )
  for row in old.rows["GroceryListItem"] ?? [] {
    guard let id = uuid(row["id"]), let item = items[id] else {
      Issue.record("grocery list item \(row["id"] as String? ?? "") missing")
      continue
    }
    #expect(item["weeklyList"].reference == uuid(row["weeklyList"]))
    #expect(item["sourceRecipe"].reference == uuid(row["recipe"]))
    #expect(item["displayName"].text == collapsed((row["name"] as String?) ?? ""))
    if let oldTemplate = uuid(row["ingredientTemplate"]), let name = oldTemplateNames[oldTemplate] {
      #expect(item["template"].reference.flatMap { templates[$0]?.semanticKey } == SemanticKey.canonicalIngredientName(name))
    }
  }
  for row in old.rows["PlannedMeal"] ?? [] {
    // The meal of each old slot plans the old recipe, or lists it in its notes.
    guard let key = old.slotKey(row, zone: newYork), let meal = meals.values.first(where: { $0.semanticKey == key }) else { continue }
    if let recipe = uuid(row["recipe"]), meal["recipe"].reference != recipe {
      let title = recipes[recipe]?["displayName"].text ?? ""
      #expect(meal["notes"].text?.contains(title) == true)
    }
  }

  // Keepers: the smallest id of each group, with the loser's values folded in.
  for merge in report.dedup?.merges ?? [] {
    #expect(merge.losers.allSatisfy { UUID.keeperOrder(merge.keeper.id, $0.id) })
    #expect(try store.read { try $0.liveRecord(merge.kind, id: merge.keeper.id) } != nil)
    for loser in merge.losers { #expect(try store.read { try $0.liveRecord(merge.kind, id: loser.id) } == nil) }
  }
  let colorByTag = Dictionary(
    (old.rows["Tag"] ?? []).compactMap { row in uuid(row["id"]).map { ($0, row["color"] as String?) } }, uniquingKeysWith: { a, _ in a })
  for merge in report.dedup?.merges ?? [] where merge.kind == .tag {
    let expected = ([merge.keeper] + merge.losers).compactMap { colorByTag[$0.id] ?? nil }.first
    #expect(tags[merge.keeper.id]?["color"].text == expected)
  }
  let groceryItems = Dictionary(
    (old.rows["GroceryItem"] ?? []).map { (LegacySnapshot.id($0, "GroceryItem"), $0) }, uniquingKeysWith: { a, _ in a })
  for merge in report.dedup?.merges ?? [] where merge.kind == .ingredientTemplate {
    let staple = ([merge.keeper] + merge.losers).contains { ((groceryItems[$0.id]?["isStaple"] as Int64?) ?? 0) != 0 }
    #expect(templates[merge.keeper.id]?["isStaple"] == .bool(staple))
    let hasCategory = ([merge.keeper] + merge.losers).contains {
      !SemanticKey.normalizedName((groceryItems[$0.id]?["category"] as String?) ?? "").isEmpty
    }
    #expect((templates[merge.keeper.id]?["category"].reference != nil) == hasCategory)
  }
  return report
}

extension FieldValue {
  var textListValue: [String] { if case .textList(let values) = self { values } else { [] } }
}

/// A v1 name as the migration keeps it: trimmed, inner whitespace runs collapsed.
private func collapsed(_ name: String) -> String {
  name.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
}
