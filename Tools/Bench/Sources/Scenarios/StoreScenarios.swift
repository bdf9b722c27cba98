import BenchBaselines
import Foundation
import Model
import Normalization
import Persistence
import PersistenceSQLite
import Repositories

/// The SELECT a hand-written reader of a unique kind's key would prepare: at most one
/// live row has the key, so nothing to order.
private func keyLookupSQL(_ db: RawDatabase, table: String, key: String) throws -> RawStatement {
  let columns = try db.columns(of: table).map { "\"\($0)\"" }.joined(separator: ", ")
  return try db.prepare("SELECT \(columns) FROM \"\(table)\" WHERE \"\(key)\" = ? AND deletedAt IS NULL")
}

/// One raw indexed lookup: bind, step through the rows, read their columns.
@inline(__always)
private func rawLookup(_ statement: RawStatement, _ key: String) throws -> Int {
  statement.bind(1, key)
  var rows = 0
  while try statement.step() {
    rows += statement.touchRow() > 0 ? 1 : 0
  }
  statement.reset()
  return rows
}

/// Runs Forager and the baseline alternately, `rounds` times over the same keys, timing
/// each operation.
private func alternate<Key>(
  rounds: Int, keys: [Key], forager: (Key) throws -> Void, baseline: (Key) throws -> Void
) rethrows -> (forager: [Double], baseline: [Double]) {
  var a: [Double] = [], b: [Double] = []
  a.reserveCapacity(rounds * keys.count)
  b.reserveCapacity(rounds * keys.count)
  for key in keys.prefix(200) {
    try forager(key)
    try baseline(key)
  }
  for _ in 0..<rounds {
    for key in keys { a.append(try time { try forager(key) }) }
    for key in keys { b.append(try time { try baseline(key) }) }
  }
  return (a, b)
}

enum StoreScenarios {
  static let lookup = Scenario(
    id: "lookup", title: "semantic-key lookup in a store of templates", target: "≤ 2× baseline",
    parameters: ["lookup.templates", "lookup.ops"]
  ) { context in
    let path = context.path("store.sqlite")
    let keys = try StoreFixture.templates(at: path, count: context.sizes["lookup.templates"])
    var random = SeededGenerator(seed: 7)
    let sample = (0..<context.sizes["lookup.ops"]).map { _ in keys[Int.random(in: 0..<keys.count, using: &random)] }
    let store = try SQLiteStore(path: path)
    let raw = try RawDatabase(path: path)
    let select = try keyLookupSQL(raw, table: "ingredientTemplate", key: "canonicalName")
    let samples = try alternate(
      rounds: context.rounds, keys: sample,
      forager: { key in
        let found = try store.read { try $0.records(.ingredientTemplate, semanticKey: key) }
        guard found.count == 1 else { throw BenchError("lookup of \(key) found \(found.count)") }
      },
      baseline: { key in
        guard try rawLookup(select, key) == 1 else { throw BenchError("raw lookup of \(key) failed") }
      }
    )
    // The same lookups without a transaction each: where the time goes.
    var inOne: [Double] = [], empty: [Double] = []
    try store.read { reader in
      for key in sample { inOne.append(try time { _ = try reader.records(.ingredientTemplate, semanticKey: key) }) }
    }
    for _ in sample { empty.append(try time { try store.read { _ in } }) }
    var result = ScenarioResult(context)
    result.figures["lookup inside one open read"] = Stats(inOne).median
    result.figures["empty store.read"] = Stats(empty).median
    result.compare(samples.forager, samples.baseline)
    result.judge((result.ratio ?? .infinity) <= 2)
    result.note =
      "Forager: store.read { records(.ingredientTemplate, semanticKey:) } (one read transaction, decoded Records); baseline: prepared SELECT in autocommit, columns read"
    return result
  }

  static let getOrCreateExisting = Scenario(
    id: "getOrCreate", title: "get-or-create of an existing name (normalization included)",
    target: "≤ 1.5× baseline lookup", parameters: ["getOrCreate.templates", "getOrCreate.ops"]
  ) { context in
    let path = context.path("store.sqlite")
    let count = context.sizes["getOrCreate.templates"]
    let keys = try StoreFixture.templates(at: path, count: count)
    var random = SeededGenerator(seed: 11)
    // Spelled the way people type: other case, plural, extra spaces.
    let sample = (0..<context.sizes["getOrCreate.ops"]).map { _ in
      let index = Int.random(in: 0..<count, using: &random)
      return (name: "  HERB  \(Names.word(index).capitalized)s ", key: keys[index])
    }
    let store = try SQLiteStore(path: path)
    let library = Library(store: store)
    let raw = try RawDatabase(path: path)
    let select = try keyLookupSQL(raw, table: "ingredientTemplate", key: "canonicalName")
    let samples = try alternate(
      rounds: context.rounds, keys: sample,
      forager: { entry in
        let template = try library.ingredients.getOrCreate(entry.name)
        guard template.canonicalName == entry.key else { throw BenchError("\(entry.name) resolved to \(template.canonicalName)") }
      },
      baseline: { entry in
        guard try rawLookup(select, entry.key) == 1 else { throw BenchError("raw lookup of \(entry.key) failed") }
      }
    )
    var result = ScenarioResult(context)
    result.compare(samples.forager, samples.baseline)
    result.judge((result.ratio ?? .infinity) <= 1.5)
    result.note = "Forager: library.ingredients.getOrCreate(\"  HERB  Xyzs \"); baseline: the indexed SELECT of the already-normalized key"
    return result
  }

  static let insertNew = Scenario(
    id: "insert", title: "get-or-create of new names in one transaction", target: "≥ 75 % of baseline insert rate",
    parameters: ["insert.names"]
  ) { context in
    let count = context.sizes["insert.names"]
    let names = (0..<count).map { Names.template($0) }
    let keys = names.map { SemanticKey.canonicalIngredientName($0) }
    let rounds = context.wholeRounds
    var foragerTimes: [Double] = [], baselineTimes: [Double] = []
    for round in 0..<rounds {
      // Each side on a new store with the writer's settings and checkpoints; each side's
      // store is closed (its checkpoint waited for) before the other side is timed.
      let foragerPath = context.path("forager-\(round).sqlite")
      let store = try SQLiteStore(path: foragerPath)
      let library = Library(store: store)
      foragerTimes.append(
        try time {
          try library.transaction { tx in
            for name in names { _ = try tx.ingredients.getOrCreate(name) }
          }
        })
      try store.close()
      let basePath = context.path("baseline-\(round).sqlite")
      try SQLiteStore(path: basePath).close()
      let raw = try RawDatabase(path: basePath)
      let select = try raw.prepare("SELECT id FROM ingredientTemplate WHERE canonicalName = ? AND deletedAt IS NULL")
      // A new name may still be another template's alias ("scallion" of "spring onion"):
      // get-or-create must look, and so must a hand-written program (one probe of the
      // alias index the store keeps).
      let aliasHolder = try raw.prepare(
        "SELECT id FROM ingredientTemplate WHERE deletedAt IS NULL AND id IN (SELECT id FROM ingredientTemplate_aliases_elements WHERE value = ?)"
      )
      let insert = try RawInsert(raw, table: "ingredientTemplate")
      let log = try raw.prepare("INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp) VALUES (?, ?, ?, ?, ?, ?)")
      baselineTimes.append(
        try time {
          try raw.execute("BEGIN IMMEDIATE")
          let now = Date().timeIntervalSinceReferenceDate
          for (name, key) in zip(names, keys) {
            select.bind(1, key)
            if try select.step() { throw BenchError("\(key) exists") }
            select.reset()
            aliasHolder.bind(1, key)
            if try aliasHolder.step() { throw BenchError("\(key) is an alias") }
            aliasHolder.reset()
            let id = DeterministicID.make(kind: .ingredientTemplate, semanticKey: key).uuidString.lowercased()
            insert.bind("id", id)
            insert.bind("createdAt", now)
            insert.bind("updatedAt", now)
            insert.bind("ownerID", "local")
            insert.bind("sharingScope", "private")
            insert.bind("displayName", name)
            insert.bind("canonicalName", key)
            insert.bind("aliases", "[]")
            insert.bind("ingredientKind", "other")
            insert.bind("isStaple", Int64(0))
            insert.bind("usageCount", Int64(0))
            try insert.statement.run()
            log.bind(1, "ingredientTemplate")
            log.bind(2, id)
            log.bind(3, "insert")
            log.bind(4, #"["aliases","canonicalName","displayName","ingredientKind","isStaple","usageCount"]"#)
            log.bind(5, "local")
            log.bind(6, now)
            try log.run()
          }
          try raw.execute("COMMIT")
        })
      try raw.close()
      for path in [foragerPath, basePath] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      }
    }
    var result = ScenarioResult(context)
    result.compare(foragerTimes, baselineTimes)
    if let forager = result.forager, let baseline = result.baseline {
      result.figures["forager names/s"] = Double(count) / forager.median
      result.figures["baseline names/s"] = Double(count) / baseline.median
    }
    result.judge((result.ratio ?? .infinity) <= 1 / 0.75)
    result.note =
      "times are per transaction of all names; baseline: key SELECT + alias SELECT + row INSERT + change-log INSERT per name (the name-based id computed the same way)"
    return result
  }

  static let recipeCreate = Scenario(
    id: "recipe", title: "recipe create with ingredient lines (templates resolved)", target: "≤ 1.25× baseline",
    parameters: ["recipe.templates", "recipe.lines", "recipe.ops"]
  ) { context in
    let path = context.path("store.sqlite")
    let templateCount = context.sizes["recipe.templates"], lineCount = context.sizes["recipe.lines"]
    let keys = try StoreFixture.templates(at: path, count: templateCount)
    let store = try SQLiteStore(path: path)
    let library = Library(store: store)
    let raw = try RawDatabase(path: path)
    let findRecipe = try raw.prepare("SELECT id FROM recipe WHERE titleKey = ? AND deletedAt IS NULL")
    let findTemplate = try raw.prepare("SELECT id, usageCount FROM ingredientTemplate WHERE canonicalName = ? AND deletedAt IS NULL")
    let bumpTemplate = try raw.prepare("UPDATE ingredientTemplate SET usageCount = ?, lastUsed = ?, updatedAt = ? WHERE id = ?")
    let insertRecipe = try RawInsert(raw, table: "recipe")
    let insertLine = try RawInsert(raw, table: "recipeIngredient")
    let log = try raw.prepare("INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp) VALUES (?, ?, ?, ?, ?, ?)")
    func logChange(_ kind: String, _ id: String, _ operation: String, _ fields: String, _ now: Double) throws {
      log.bind(1, kind)
      log.bind(2, id)
      log.bind(3, operation)
      log.bind(4, fields)
      log.bind(5, "local")
      log.bind(6, now)
      try log.run()
    }
    var random = SeededGenerator(seed: 5)
    let operations = context.sizes["recipe.ops"]
    let drafts = (0..<(operations * (context.rounds + 1))).map { index in
      let lines = (0..<lineCount).map { _ in Int.random(in: 0..<templateCount, using: &random) }
      return (
        name: "Dish \(Names.word(index))",
        lines: lines.map { "2 cups \(Names.template($0))" }, keys: lines.map { keys[$0] }
      )
    }
    // The baseline's ids are made before its timed spans: Foundation's UUID() reads
    // /dev/urandom for each id, several times the cost of Forager's id source (getrandom),
    // and a baseline must not be charged for a slower generator.
    let baselineIDs = drafts.map { _ in UUID() }
    var foragerTimes: [Double] = [], baselineTimes: [Double] = []
    for round in 0...context.rounds {
      let batch = drafts[(round * operations)..<((round + 1) * operations)]
      var forager: [Double] = [], baseline: [Double] = []
      for draft in batch {
        forager.append(
          try time {
            guard case .created = try library.recipes.create(RecipeDraft(name: draft.name, ingredients: draft.lines)) else {
              throw BenchError("recipe \(draft.name) not created")
            }
          })
      }
      for (offset, draft) in zip(batch.indices, batch) {
        let title = "baseline " + draft.name
        let recipeID = baselineIDs[offset]
        baseline.append(
          try time {
            try raw.execute("BEGIN IMMEDIATE")
            let now = Date().timeIntervalSinceReferenceDate
            let titleKey = SemanticKey.titleKey(title)
            findRecipe.bind(1, titleKey)
            if try findRecipe.step() { throw BenchError("recipe exists") }
            findRecipe.reset()
            let recipeText = recipeID.uuidString.lowercased()
            insertRecipe.bindMetadata(id: recipeID, at: now)
            insertRecipe.bind("displayName", title)
            insertRecipe.bind("titleKey", titleKey)
            insertRecipe.bind("recipeIngredient", "[\"" + draft.lines.joined(separator: "\",\"") + "\"]")
            insertRecipe.bind("normalizedIngredients", "[\"" + draft.keys.joined(separator: "\",\"") + "\"]")
            insertRecipe.bind("sourceType", "manual")
            try insertRecipe.statement.run()
            try logChange(
              "recipe", recipeText, "insert", #"["displayName","normalizedIngredients","recipeIngredient","sourceType","titleKey"]"#, now)
            for (order, key) in draft.keys.enumerated() {
              findTemplate.bind(1, key)
              guard try findTemplate.step() else { throw BenchError("template \(key) missing") }
              let templateID = findTemplate.text(0)
              let usage = Int64(findTemplate.text(1)) ?? 0
              findTemplate.reset()
              bumpTemplate.bind(1, usage + 1)
              bumpTemplate.bind(2, now)
              bumpTemplate.bind(3, now)
              bumpTemplate.bind(4, templateID)
              try bumpTemplate.run()
              try logChange("ingredientTemplate", templateID, "update", #"["lastUsed","usageCount"]"#, now)
              guard let lineID = DeterministicID.child(of: recipeID, at: order) else { throw BenchError("line \(order)") }
              insertLine.bindMetadata(id: lineID, at: now)
              insertLine.bind("recipe", recipeText)
              insertLine.bind("template", templateID)
              insertLine.bind("rawLine", draft.lines[order])
              insertLine.bind("quantity", 2.0)
              insertLine.bind("unit", "cup")
              insertLine.bind("sortOrder", Int64(order))
              try insertLine.statement.run()
              try logChange(
                "recipeIngredient", lineID.uuidString.lowercased(), "insert",
                #"["quantity","rawLine","recipe","sortOrder","template","unit"]"#, now)
            }
            try raw.execute("COMMIT")
          })
      }
      if round > 0 {  // round 0 warms up
        foragerTimes += forager
        baselineTimes += baseline
      }
    }
    var result = ScenarioResult(context)
    result.compare(foragerTimes, baselineTimes)
    result.judge((result.ratio ?? .infinity) <= 1.25)
    result.note =
      "Forager: library.recipes.create(RecipeDraft) (one transaction, lines parsed, templates found, usage counted); baseline: the same rows and change-log entries by hand"
    return result
  }
}
