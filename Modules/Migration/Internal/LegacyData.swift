import Foundation
import GRDB
import Model
import Normalization

/// The rows of a version-1 file, read whole before stage A rewrites it.
struct LegacyData {
  struct Table {
    let name: String
    let rows: [Row]
  }

  private(set) var tables: [String: [Row]] = [:]

  init(_ db: Database) throws {
    for name in LegacySchema.tableNames where try db.tableExists(name) {
      tables[name] = try Row.fetchAll(db, sql: "SELECT rowid AS legacyRowID, * FROM \(name.quotedDatabaseIdentifier) ORDER BY rowid")
    }
  }

  func rows(_ table: String) -> [Row] { tables[table] ?? [] }
}

/// Ids of version-1 rows: the row's own UUID when it has a valid, unused one, else a
/// name-based id derived from the table and row number (Core Data's `id` was optional),
/// so a rerun gives the same ids.
struct LegacyIDs {
  private var used: [String: Set<UUID>] = [:]
  /// Ids, per table, that a row kept from its own legacy id text, so references may name them.
  private var kept: [String: Set<UUID>] = [:]

  mutating func assign(_ row: Row, table: String) -> UUID {
    let parsed = (row["id"] as String?).flatMap(Self.parse)
    let rowID: Int64 = row["legacyRowID"]
    if let parsed, used[table, default: []].insert(parsed).inserted {
      kept[table, default: []].insert(parsed)
      return parsed
    }
    let derived = DeterministicID.uuidV5(namespace: DeterministicID.namespace, name: "legacy:\(table):\(rowID)")
    used[table, default: []].insert(derived)
    return derived
  }

  /// The id a reference names, when it names a row of one of `tables`.
  func resolve(_ text: String?, in tables: String...) -> UUID? {
    guard let parsed = text.flatMap(Self.parse) else { return nil }
    for table in tables where kept[table]?.contains(parsed) == true { return parsed }
    return nil
  }

  /// A legacy id text, trimmed, in any case: Model's parser for the usual 8-4-4-4-12 form
  /// (Foundation's goes through `sscanf`, a seventh of stage A on 50k rows), Foundation's
  /// for whatever else it accepts, so the ids kept are the same either way.
  private static func parse(_ text: String) -> UUID? {
    let trimmed = Whitespace.trimmed(text, newlines: false)
    return UUID(hyphenatedHex: trimmed) ?? UUID(uuidString: trimmed)
  }
}

extension Row {
  func text(_ column: String) -> String? { self[column] as String? }
  func trimmed(_ column: String) -> String? {
    guard let value = self[column] as String? else { return nil }
    let trimmed = Whitespace.trimmed(value)
    return trimmed.isEmpty ? nil : trimmed
  }
  /// A name as the app itself keeps one: trimmed, inner runs of whitespace collapsed to
  /// one space ("Crème  Fraîche" → "Crème Fraîche"); nil when blank.
  func name(_ column: String) -> String? {
    guard let value = self[column] as String? else { return nil }
    let collapsed = value.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    return collapsed.isEmpty ? nil : collapsed
  }
  func flag(_ column: String) -> Bool { ((self[column] as Int64?) ?? 0) != 0 }
  func number(_ column: String) -> Int64 { (self[column] as Int64?) ?? 0 }
  /// A Core Data date: seconds since 2001-01-01.
  func date(_ column: String) -> Date? { (self[column] as Double?).map(Date.init(timeIntervalSinceReferenceDate:)) }
}
