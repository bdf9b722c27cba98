import BenchBaselines
import Foundation
import LegacyStoreSupport
import Migration
import Model

/// Old stores, written by the `Migration` module's v1 generator and upgraded in place.
enum MigrationScenarios {
  static let migration = Scenario(
    id: "migration", title: "v1 → current migration (generated v1 store, its dedup included)", target: "< 1.5 s",
    parameters: ["migration.records"]
  ) { context in
    var samples: [Double] = [], rows = 0
    for round in 0..<context.wholeRounds {
      let path = context.path("v1-\(round).sqlite")
      rows = try LegacyStoreGenerator(seed: 7, recordCount: context.sizes["migration.records"]).write(to: path).total
      let migrator = StoreMigrator(path: path)
      var report: MigrationReport?
      samples.append(try time { report = try migrator.migrate(MigrationOptions(makeBackup: false)) })
      guard let report, report.toVersion == StoreMigrator.currentVersion else {
        throw BenchError("migration did not reach the current version")
      }
    }
    var result = ScenarioResult(context)
    result.compare(samples, nil)
    result.figures["v1 rows count"] = Double(rows)
    result.judge((result.forager?.median ?? .infinity) < 1.5)
    result.note = "LegacyStoreGenerator(seed: 7) then StoreMigrator.migrate (stage A, keeper-rule dedup, stage B), no backup"
    return result
  }
}

extension MigrationScenarios {
  /// The dedup step alone, on a v2 file full of duplicate groups, against hand-written
  /// set-based SQL doing the same merges on a copy of the same file.
  static let dedup = Scenario(
    id: "dedup", title: "dedup of duplicate groups (a v1 store)", target: "≤ 1.2× baseline",
    parameters: ["dedup.groups", "dedup.records"]
  ) { context in
    let groups = context.sizes["dedup.groups"]
    // A v1 file with the realistic spread plus `groups` extra groups, taken through stage A
    // once: the v2 file every round copies.
    let source = context.path("v1.sqlite")
    let generator = LegacyStoreGenerator(seed: 7, recordCount: context.sizes["dedup.records"], duplicateGroups: groups)
    let rows = try generator.write(to: source).total
    var stageA = StoreMigrator(path: source)
    stageA.stopsAfterStageA = true
    let stageASeconds = try time { _ = try stageA.migrate(MigrationOptions(target: 2, makeBackup: false)) }
    var foragerTimes: [Double] = [], baselineTimes: [Double] = []
    var merged = 0, repointed = 0, groupCount = 0
    for round in 0..<context.wholeRounds {
      let foragerPath = context.path("forager-\(round).sqlite"), basePath = context.path("baseline-\(round).sqlite")
      for path in [foragerPath, basePath] { try FileManager.default.copyItem(atPath: source, toPath: path) }
      var report: MigrationReport?
      foragerTimes.append(
        try time { report = try StoreMigrator(path: foragerPath).migrate(MigrationOptions(target: 2, makeBackup: false)) })
      guard let dedup = report?.dedup else { throw BenchError("no dedup report") }
      merged = dedup.mergedRecordCount
      repointed = dedup.repointed
      groupCount = dedup.merges.count
      guard groupCount >= groups else { throw BenchError("only \(groupCount) groups merged, \(groups) generated") }
      let raw = try RawDatabase(path: basePath)
      baselineTimes.append(try time { try RawDedup.run(raw) })
      // Both must leave the same live records of every unique kind.
      let check = try RawDatabase(path: foragerPath)
      for kind in RawDedup.kinds {
        let sql = "SELECT COUNT(*) FROM \"\(kind.rawValue)\" WHERE deletedAt IS NULL"
        let (f, b) = (try check.scalar(sql), try raw.scalar(sql))
        guard f == b else { throw BenchError("\(kind.rawValue): Forager keeps \(f) live records, the baseline \(b)") }
      }
      for path in [foragerPath, basePath] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      }
    }
    var result = ScenarioResult(context)
    result.compare(foragerTimes, baselineTimes)
    result.figures["v1 rows count"] = Double(rows)
    result.figures["groups count"] = Double(groupCount)
    result.figures["merged records count"] = Double(merged)
    result.figures["re-pointed references count"] = Double(repointed)
    result.figures["stage A (untimed)"] = stageASeconds
    result.judge((result.ratio ?? .infinity) <= 1.2)
    result.note =
      "LegacyStoreGenerator(seed: 7, duplicateGroups:) through stage A once; timed: StoreMigrator.migrate(target: 2) on a copy of that v2 file (the dedup step alone, one transaction); baseline: set-based SQL (keeper map, folds, tombstones, re-pointing, change log) on another copy"
    return result
  }
}

/// The baseline of the dedup row: what a hand-written program does with the same v2 file
/// — per unique kind, a temporary loser → keeper table (smallest id per key), one UPDATE
/// folding the losers' flags, counts, dates and empty fields into the keepers, one
/// tombstoning the losers, one per reference re-pointing them, and the change-log rows.
enum RawDedup {
  /// Unique kinds, each after the unique kinds it refers to.
  static var kinds: [EntityKind] {
    var remaining = EntityKind.allCases.filter { $0.schema.identity.isUnique }
    var ordered: [EntityKind] = []
    while !remaining.isEmpty {
      let ready = remaining.filter { kind in
        kind.schema.relationships.allSatisfy { field in
          guard let target = field.type.referencedKind, target != kind else { return true }
          return !remaining.contains(target)
        }
      }
      let next = ready.isEmpty ? remaining : ready
      ordered += next
      remaining.removeAll { next.contains($0) }
    }
    return ordered
  }

  static func run(_ db: RawDatabase) throws {
    // The same cache and temporary storage as the migration's connection.
    try db.execute("PRAGMA cache_size = -65536")
    try db.execute("PRAGMA temp_store = MEMORY")
    let now = Date().timeIntervalSinceReferenceDate
    func log(_ kind: String, _ idColumn: String, _ operation: String, _ fields: String, from: String) throws {
      try db.execute(
        """
        INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp)
        SELECT '\(kind)', \(idColumn), '\(operation)', '\(fields)', 'migration', \(now) FROM \(from)
        """)
    }
    try db.execute("BEGIN IMMEDIATE")
    for kind in kinds {
      guard let keyField = kind.schema.semanticKeyField else { continue }
      let table = "\"\(kind.rawValue)\"", key = "\"\(keyField)\""
      try db.execute("CREATE TEMP TABLE merge_map (loser TEXT PRIMARY KEY, keeper TEXT NOT NULL) WITHOUT ROWID")
      try db.execute(
        """
        INSERT INTO merge_map
        SELECT t.id, g.keeper FROM \(table) t JOIN (
          SELECT \(key) AS k, MIN(id) AS keeper FROM \(table) WHERE deletedAt IS NULL AND \(key) <> '' GROUP BY \(key) HAVING COUNT(*) > 1
        ) g ON t.\(key) = g.k WHERE t.deletedAt IS NULL AND t.id <> g.keeper
        """)
      // Folds: flags stay set, counts add up, the latest date wins, empty fields take a value.
      let identity = Set(kind.schema.identityFields)
      var sets: [String] = ["createdAt = MIN(\(table).createdAt, f.createdAt)", "updatedAt = MAX(\(table).updatedAt, f.updatedAt)"]
      var aggregates = ["MIN(l.createdAt) AS createdAt", "MAX(l.updatedAt) AS updatedAt"]
      for field in kind.schema.fields where !identity.contains(field.name) {
        let column = "\"\(field.name)\""
        switch field.type {
        case .bool, .timestamp:
          aggregates.append("MAX(l.\(column)) AS \(column)")
          sets.append("\(column) = MAX(COALESCE(\(table).\(column), f.\(column)), COALESCE(f.\(column), \(table).\(column)))")
        case .integer where field.name == "usageCount":
          aggregates.append("SUM(l.\(column)) AS \(column)")
          sets.append("\(column) = \(table).\(column) + f.\(column)")
        case .text, .enumeration, .civilDate, .duration, .reference:
          aggregates.append("MIN(NULLIF(l.\(column), '')) AS \(column)")
          sets.append("\(column) = COALESCE(NULLIF(\(table).\(column), ''), f.\(column))")
        default: continue
        }
      }
      try db.execute(
        """
        UPDATE \(table) SET \(sets.joined(separator: ", "))
        FROM (SELECT m.keeper AS id, \(aggregates.joined(separator: ", ")) FROM merge_map m JOIN \(table) l ON l.id = m.loser GROUP BY m.keeper) f
        WHERE \(table).id = f.id
        """)
      try log(kind.rawValue, "keeper", "update", "[]", from: "(SELECT DISTINCT keeper FROM merge_map)")
      // Tombstones.
      try db.execute("UPDATE \(table) SET deletedAt = \(now), updatedAt = \(now) WHERE id IN (SELECT loser FROM merge_map)")
      try log(kind.rawValue, "loser", "delete", "[]", from: "merge_map")
      // Re-pointing.
      for (owner, field) in EntitySchema.references(to: kind) {
        let ownerTable = "\"\(owner.rawValue)\"", column = "\"\(field.name)\""
        if case .referenceList = field.type {
          let affected =
            "\(ownerTable) WHERE deletedAt IS NULL AND EXISTS (SELECT 1 FROM json_each(\(column)) j JOIN merge_map m ON m.loser = j.value)"
          try log(owner.rawValue, "id", "update", "[\"\(field.name)\"]", from: affected)
          try db.execute(
            """
            UPDATE \(ownerTable) SET \(column) = (
              SELECT json_group_array(v) FROM (
                SELECT COALESCE(m.keeper, j.value) AS v, MIN(j.key) AS position FROM json_each(\(ownerTable).\(column)) j
                LEFT JOIN merge_map m ON m.loser = j.value GROUP BY v ORDER BY position))
            WHERE deletedAt IS NULL AND EXISTS (SELECT 1 FROM json_each(\(column)) j JOIN merge_map m ON m.loser = j.value)
            """)
        } else {
          try log(
            owner.rawValue, "id", "update", "[\"\(field.name)\"]",
            from: "\(ownerTable) WHERE deletedAt IS NULL AND \(column) IN (SELECT loser FROM merge_map)")
          try db.execute(
            """
            UPDATE \(ownerTable) SET \(column) = (SELECT keeper FROM merge_map WHERE loser = \(ownerTable).\(column))
            WHERE deletedAt IS NULL AND \(column) IN (SELECT loser FROM merge_map)
            """)
        }
      }
      try db.execute("DROP TABLE merge_map")
    }
    try db.execute("COMMIT")
  }
}
