import Foundation
import GRDB
import Model
import Normalization
import Persistence
import PersistenceSQLite

/// Stage A, v1 → v2, inside the caller's transaction: reads the earlier app's tables,
/// drops them, creates today's tables without the unique constraints and writes every
/// record in today's shape — `displayName` for `name`/`title`, semantic keys, timestamps,
/// civil dates and meal types for planned meals.
struct StageA {
  let db: Database
  let writer: any StoreWriter
  let zone: TimeZone
  let now: Date
  private(set) var report = StageAReport()

  private var ids = LegacyIDs()
  /// The smallest id per key among the records written so far (the future keeper).
  private var categoryByKey: [String: UUID] = [:]
  private var templateByKey: [String: UUID] = [:]
  private var unfiledList: UUID?

  init(db: Database, writer: any StoreWriter, zone: TimeZone, now: Date) {
    self.db = db
    self.writer = writer
    self.zone = zone
    self.now = now
  }

  mutating func run() throws {
    let legacy = try LegacyData(db)
    report.notes += legacy.notes
    for table in LegacySchema.tableNames.reversed() where try db.tableExists(table) {
      try db.execute(sql: "DROP TABLE \(table.quotedDatabaseIdentifier)")
    }
    try SQLiteSchemaSupport.createTables(db, uniqueConstraints: false)

    // Ids first, so every reference can be resolved whatever order tables are written in.
    var rowIDs: [String: [UUID]] = [:]
    for table in LegacySchema.tableNames where table != "RecipeTag" {
      rowIDs[table] = legacy.rows(table).map { ids.assign($0, table: table) }
    }
    func each(_ table: String, _ body: (LegacyRow, UUID) throws -> Void) rethrows {
      for (row, id) in zip(legacy.rows(table), rowIDs[table] ?? []) { try body(row, id) }
    }

    try each("Category") { row, id in
      let name = row.name("name") ?? ""
      try insert(Category(meta: meta(id), displayName: name, normalizedName: SemanticKey.normalizedName(name)).record)
      remember(&categoryByKey, SemanticKey.normalizedName(name), id)
    }
    try each("Tag") { row, id in
      let name = row.name("name") ?? ""
      try insert(
        Tag(meta: meta(id), displayName: name, normalizedName: SemanticKey.normalizedName(name), color: row.trimmed("color")).record)
    }
    try each("IngredientTemplate") { row, id in
      let name = row.name("name") ?? ""
      let key = SemanticKey.canonicalIngredientName(name)
      try insert(IngredientTemplate(meta: meta(id), displayName: name, canonicalName: key).record)
      remember(&templateByKey, key, id)
    }
    // Grocery items were the staples catalogue: each becomes an ingredient template (the
    // dedup step merges it with a template of the same name), its category named by text.
    try each("GroceryItem") { row, id in
      let name = row.name("name") ?? ""
      let key = SemanticKey.canonicalIngredientName(name)
      let created = row.date("dateCreated") ?? now
      let purchased = row.date("lastPurchased")
      let template = IngredientTemplate(
        meta: meta(id, created: created, updated: max(created, purchased ?? created)), displayName: name, canonicalName: key,
        category: try category(named: row.trimmed("category")), isStaple: row.flag("isStaple"), lastUsed: purchased
      )
      try insert(template.record)
      remember(&templateByKey, key, id)
    }

    // Recipes with their ingredient lines and tags.
    var tagsByRecipe: [UUID: [UUID]] = [:]
    for row in legacy.rows("RecipeTag") {
      guard let recipe = ids.resolve(row.text("recipe"), in: "Recipe") else { continue }
      guard let tag = ids.resolve(row.text("tag"), in: "Tag") else {
        report.notes.append("a recipe named a tag that does not exist (\(row.text("tag") ?? "")); link dropped")
        continue
      }
      if !(tagsByRecipe[recipe]?.contains(tag) ?? false) { tagsByRecipe[recipe, default: []].append(tag) }
    }
    var linesByRecipe: [UUID: [(order: Int64, line: RecipeIngredient, canonical: String)]] = [:]
    var orphanLines = 0, blankLines = 0
    try each("Ingredient") { row, id in
      guard let recipe = ids.resolve(row.text("recipe"), in: "Recipe") else {
        orphanLines += 1
        return
      }
      guard let name = row.name("name") else {
        blankLines += 1
        return
      }
      let (template, canonical) = try template(named: name)
      let quantityText = row.trimmed("quantity"), unit = row.trimmed("unit"), notes = row.trimmed("notes")
      let rawLine = [quantityText, unit, name].compactMap { $0 }.joined(separator: " ") + (notes.map { ", \($0)" } ?? "")
      let line = RecipeIngredient(
        meta: meta(id), recipe: recipe, template: template, rawLine: rawLine, quantity: quantityText.flatMap(Self.quantity),
        unit: unit, notes: notes, sortOrder: row.number("sortOrder")
      )
      linesByRecipe[recipe, default: []].append((row.number("sortOrder"), line, canonical))
    }
    if orphanLines > 0 { report.notes.append("\(orphanLines) ingredient lines belonged to no recipe and were not migrated") }
    if blankLines > 0 { report.notes.append("\(blankLines) ingredient lines had no name and were not migrated") }
    var recipeCreated: [UUID: Date] = [:]
    try each("Recipe") { row, id in
      let title = row.name("title") ?? ""
      let created = row.date("dateCreated") ?? now
      recipeCreated[id] = created
      let lines = (linesByRecipe[id] ?? []).enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(
        \.element)
      let prep = Int(row.number("prepTime")), cook = Int(row.number("cookTime")), servings = row.number("servings")
      let lastUsed = row.date("lastUsed")
      let url = row.trimmed("sourceURL")
      let recipe = Recipe(
        meta: meta(id, created: created, updated: max(created, lastUsed ?? created)), displayName: title,
        titleKey: SemanticKey.titleKey(title), recipeIngredient: lines.map(\.line.rawLine),
        normalizedIngredients: lines.map(\.canonical),
        recipeInstructions: (row.text("instructions") ?? "").split(whereSeparator: \.isNewline)
          .map { Whitespace.trimmed($0, newlines: false) }.filter { !$0.isEmpty },
        recipeYield: servings > 0 ? "\(servings) serving\(servings == 1 ? "" : "s")" : nil,
        prepTime: Self.duration(prep), cookTime: Self.duration(cook), totalTime: Self.duration(prep + cook),
        sourceType: url == nil ? .manual : .url, sourceURL: url, tags: tagsByRecipe[id] ?? [],
        isFavorite: row.flag("isFavorite"), usageCount: row.number("usageCount"), lastUsed: lastUsed
      )
      try insert(recipe.record)
      for entry in lines {
        var line = entry.line
        line.meta = meta(line.id, created: created)
        try insert(line.record)
      }
    }

    // Meal plans and planned meals: instants become civil dates in the stated zone.
    var planCreated: [UUID: Date] = [:]
    try each("MealPlan") { row, id in
      let created = row.date("dateCreated") ?? now
      planCreated[id] = created
      let week = row.date("startDate").flatMap { self.week(of: $0) }
      try insert(MealPlan(meta: meta(id, created: created), displayName: row.name("name") ?? "", weekIdentifier: week).record)
    }
    var undated = 0
    try each("PlannedMeal") { row, id in
      guard let instant = row.date("date"), let date = LegacyConversion.civilDate(of: instant, in: zone) else {
        undated += 1
        return
      }
      var mealType = LegacyConversion.mealType(row.text("mealType"))
      if mealType == nil {
        mealType = LegacyConversion.inferredMealType(at: instant, in: zone)
        report.inferredMealTypes += 1
      }
      let type = mealType ?? .dinner
      let plan = reference(row, "mealPlan", in: "MealPlan")
      let meal = PlannedMeal(
        meta: meta(id, created: plan.flatMap { planCreated[$0] } ?? now), date: date, mealType: type,
        slotKey: SemanticKey.slotKey(year: date.year, month: date.month, day: date.day, mealType: type.rawValue),
        recipe: reference(row, "recipe", in: "Recipe"), mealPlan: plan
      )
      try insert(meal.record)
    }
    if undated > 0 { report.notes.append("\(undated) planned meals had no date and were not migrated") }

    // Weekly lists and their items.
    var listCreated: [UUID: Date] = [:]
    try each("WeeklyList") { row, id in
      let created = row.date("dateCreated") ?? now
      listCreated[id] = created
      let name = row.name("name") ?? "", listWeek = week(of: created) ?? ""
      let list = WeeklyList(
        meta: meta(id, created: created), displayName: name, weekIdentifier: listWeek,
        listKey: SemanticKey.listKey(week: listWeek, name: name), isCompleted: row.flag("isCompleted"), notes: row.trimmed("notes")
      )
      try insert(list.record)
    }
    try each("GroceryListItem") { row, id in
      let list = try ids.resolve(row.text("weeklyList"), in: "WeeklyList") ?? unfiled()
      let created = listCreated[list] ?? now
      let completed = row.date("dateCompleted")
      let sourceText = row.trimmed("source")?.lowercased()
      let item = GroceryListItem(
        meta: meta(id, created: created, updated: max(created, completed ?? created)), displayName: row.name("name") ?? "",
        quantity: row.trimmed("quantity"), isCompleted: row.flag("isCompleted"), dateCompleted: completed,
        source: ItemSource.allCases.first { $0.rawValue.lowercased() == sourceText } ?? .manual,
        sortOrder: row.number("sortOrder"), weeklyList: list,
        template: reference(row, "ingredientTemplate", in: "IngredientTemplate", "GroceryItem"),
        sourceRecipe: reference(row, "recipe", in: "Recipe")
      )
      try insert(item.record)
    }

    try writer.setMetadata(zone.identifier, forKey: "migration.timeZone")
    try writer.setMetadata(ISO8601DateFormatter().string(from: now), forKey: "migration.v1.migratedAt")
    try db.execute(sql: "PRAGMA user_version = 2")
  }

  // MARK: Helpers

  private func meta(_ id: UUID, created: Date? = nil, updated: Date? = nil) -> RecordMetadata {
    RecordMetadata(id: id, createdAt: created ?? now, updatedAt: updated ?? created ?? now)
  }

  private mutating func insert(_ record: Record) throws {
    try writer.insertRecord(record)
    report.converted[record.kind, default: 0] += 1
  }

  private func remember(_ map: inout [String: UUID], _ key: String, _ id: UUID) {
    guard !key.isEmpty else { return }
    if let existing = map[key], UUID.keeperOrder(existing, id) { return }
    map[key] = id
  }

  /// A to-one reference of a legacy row; one naming a missing record is dropped and noted.
  private mutating func reference(_ row: LegacyRow, _ column: String, in tables: String...) -> UUID? {
    guard let text = row.trimmed(column) else { return nil }
    for table in tables { if let id = ids.resolve(text, in: table) { return id } }
    report.notes.append("a \(column) reference named a record that does not exist (\(text)); cleared")
    return nil
  }

  /// The category a grocery item names by text, created when no category has its key.
  private mutating func category(named name: String?) throws -> UUID? {
    guard let name else { return nil }
    let key = SemanticKey.normalizedName(name)
    guard !key.isEmpty else { return nil }
    if let id = categoryByKey[key] { return id }
    let id = DeterministicID.make(kind: .category, semanticKey: key)
    try insert(Category(meta: meta(id), displayName: name, normalizedName: key).record)
    report.created[.category, default: 0] += 1
    categoryByKey[key] = id
    return id
  }

  /// The template an ingredient line names, created when no template has its key.
  private mutating func template(named name: String) throws -> (UUID, String) {
    let key = SemanticKey.canonicalIngredientName(name)
    if let id = templateByKey[key] { return (id, key) }
    let id = DeterministicID.make(kind: .ingredientTemplate, semanticKey: key)
    try insert(IngredientTemplate(meta: meta(id), displayName: name, canonicalName: key).record)
    report.created[.ingredientTemplate, default: 0] += 1
    templateByKey[key] = id
    return (id, key)
  }

  /// The list for items that belonged to no list (Core Data allowed it; v3 does not).
  private mutating func unfiled() throws -> UUID {
    if let unfiledList { return unfiledList }
    let id = DeterministicID.uuidV5(namespace: DeterministicID.namespace, name: "legacy:unfiled-items")
    let name = "Unfiled items (migrated)", listWeek = week(of: now) ?? ""
    try insert(
      WeeklyList(meta: meta(id), displayName: name, weekIdentifier: listWeek, listKey: SemanticKey.listKey(week: listWeek, name: name))
        .record)
    report.created[.weeklyList, default: 0] += 1
    report.notes.append("grocery list items that belonged to no list were put on the list 'Unfiled items (migrated)'")
    unfiledList = id
    return id
  }

  private func week(of instant: Date) -> String? {
    guard let date = LegacyConversion.civilDate(of: instant, in: zone) else { return nil }
    return ISOWeek.containing(year: date.year, month: date.month, day: date.day)?.description
  }

  /// "PT1H30M" for 90 minutes; nil for none.
  static func duration(_ minutes: Int) -> String? {
    guard minutes > 0 else { return nil }
    let hours = minutes / 60, rest = minutes % 60
    return "PT" + (hours > 0 ? "\(hours)H" : "") + (rest > 0 ? "\(rest)M" : "")
  }

  /// The number in a quantity the earlier app stored as text ("1 1/2", "¾", "2-3" → 2).
  static func quantity(_ text: String) -> Double? {
    IngredientLine.parse(text + " x").quantity
  }
}
