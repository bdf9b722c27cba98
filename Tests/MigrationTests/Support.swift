import Crypto
import Foundation
import GRDB
import LegacyStoreSupport
import Migration
import Model
import Normalization
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

/// The zone the generated devices planned their meals in, and that migrations read them in.
let newYork = TimeZone(identifier: "America/New_York") ?? .current
/// A fixed migration time, so two runs on equal files write equal files.
let migrationTime = Date(timeIntervalSinceReferenceDate: 790_000_000)

/// A freshly generated version-1 file.
func legacyStore(seed: UInt64 = 11, records: Int = 600, blankNames: Int = 0) throws -> (path: String, summary: LegacyStoreGenerator.Summary)
{
  let path = try TemporaryDirectory.make().appendingPathComponent("old.sqlite").path
  let summary = try LegacyStoreGenerator(seed: seed, recordCount: records, timeZone: newYork, blankNames: blankNames).write(to: path)
  return (path, summary)
}

func migrator(_ path: String) -> StoreMigrator { StoreMigrator(path: path, clock: { migrationTime }) }

func options(target: Int? = nil, backup: Bool = false, nameUnnamed: Bool = false) -> MigrationOptions {
  MigrationOptions(target: target, timeZone: newYork, makeBackup: backup, nameUnnamed: nameUnnamed)
}

/// SHA-256 of the file's bytes (with its WAL, if any, folded in by nobody: tests compare
/// files that have none or compare dumps instead).
func checksum(_ path: String) throws -> String {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

/// Every row of every table, in a stable order: the whole logical content of a file.
func tableDump(_ path: String) throws -> [String] {
  var configuration = Configuration()
  configuration.readonly = true
  let queue = try DatabaseQueue(path: path, configuration: configuration)
  defer { try? queue.close() }
  return try queue.read { db in
    var lines = ["user_version \(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1)"]
    let objects = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    for object in objects {
      lines.append("\(object["type"] as String? ?? "") \(object["name"] as String? ?? "") \(object["sql"] as String? ?? "")")
      guard object["type"] as String? == "table", let name = object["name"] as String? else { continue }
      // A WITHOUT ROWID table (the metadata) in the order of its key, the others by rowid.
      let order = (object["sql"] as String? ?? "").contains("WITHOUT ROWID") ? "1" : "rowid"
      for row in try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier) ORDER BY \(order)") {
        lines.append("\(name): \(row.description)")
      }
    }
    return lines
  }
}

/// What a version-1 file holds, read independently of the migration code, with the keys
/// its records will have.
struct LegacySnapshot {
  var rows: [String: [Row]] = [:]

  init(path: String) throws {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    try queue.read { db in
      for table in LegacySchema.tableNames {
        rows[table] = try Row.fetchAll(db, sql: "SELECT rowid AS legacyRowID, * FROM \(table) ORDER BY rowid")
      }
    }
  }

  func names(_ table: String, _ column: String = "name") -> [String] {
    (rows[table] ?? []).compactMap { $0[column] as String? }
  }

  /// The id stage A gives a row: its own, or one derived from table and row number.
  static func id(_ row: Row, _ table: String) -> UUID {
    if let text = row["id"] as String?, let id = UUID(uuidString: text) { return id }
    let rowID: Int64 = row["legacyRowID"]
    return DeterministicID.uuidV5(namespace: DeterministicID.namespace, name: "legacy:\(table):\(rowID)")
  }

  func ids(_ table: String) -> Set<String> { Set((rows[table] ?? []).compactMap { ($0["id"] as String?)?.lowercased() }) }

  var categoryKeys: Set<String> {
    Set((names("Category") + names("GroceryItem", "category")).map(SemanticKey.normalizedName)).subtracting([""])
  }

  var tagKeys: Set<String> { Set(names("Tag").map(SemanticKey.normalizedName)).subtracting([""]) }

  /// Ingredient lines that stage A migrates: those with a recipe and a name.
  var ingredientLines: [Row] {
    let recipes = ids("Recipe")
    return (rows["Ingredient"] ?? []).filter { row in
      guard let recipe = (row["recipe"] as String?)?.lowercased(), recipes.contains(recipe) else { return false }
      return !((row["name"] as String?) ?? "").trimmingCharacters(in: .whitespaces).isEmpty
    }
  }

  var templateKeys: Set<String> {
    let lineNames = ingredientLines.compactMap { $0["name"] as String? }
    return Set((names("IngredientTemplate") + names("GroceryItem") + lineNames).map { SemanticKey.canonicalIngredientName($0) })
      .subtracting([""])
  }

  func slotKey(_ row: Row, zone: TimeZone) -> String? {
    guard let seconds = row["date"] as Double? else { return nil }
    let instant = Date(timeIntervalSinceReferenceDate: seconds)
    guard let date = LegacyConversion.civilDate(of: instant, in: zone) else { return nil }
    let type = LegacyConversion.mealType(row["mealType"] as String?) ?? LegacyConversion.inferredMealType(at: instant, in: zone)
    return SemanticKey.slotKey(year: date.year, month: date.month, day: date.day, mealType: type.rawValue)
  }

  func slotKeys(zone: TimeZone) -> Set<String> { Set((rows["PlannedMeal"] ?? []).compactMap { slotKey($0, zone: zone) }) }

  func count(_ table: String) -> Int { rows[table]?.count ?? 0 }
}

extension Record {
  var name: String { self[kind.schema.displayField].displayText }
}

/// Live records of a kind, by id.
func liveRecords(_ store: any Store, _ kind: EntityKind) throws -> [UUID: Record] {
  let records = try store.read { try $0.fetch(RecordQuery(kind, sort: [])) }
  return Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
}

/// Every reference of every live record points at a live record of the right kind.
func danglingReferences(_ store: any Store) throws -> [String] {
  var live: [EntityKind: Set<UUID>] = [:]
  for kind in EntityKind.allCases { live[kind] = Set(try liveRecords(store, kind).keys) }
  var problems: [String] = []
  for kind in EntityKind.allCases {
    for record in try liveRecords(store, kind).values {
      for field in kind.schema.relationships {
        guard let target = field.type.referencedKind else { continue }
        let ids = record[field.name].reference.map { [$0] } ?? record[field.name].references
        for id in ids where !(live[target]?.contains(id) ?? false) {
          problems.append("\(kind.rawValue) \(record.id).\(field.name) → missing \(target.rawValue) \(id)")
        }
        if !field.isOptional, case .reference = field.type, record[field.name].isNull {
          problems.append("\(kind.rawValue) \(record.id).\(field.name) is empty")
        }
      }
    }
  }
  return problems
}

/// GRDB also declares a `Record` type; here the name means Forager's record.
typealias Record = Model.Record
