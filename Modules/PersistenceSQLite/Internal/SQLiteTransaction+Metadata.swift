import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// The store's key-value metadata table.
extension SQLiteTransaction {
  /// Sync reads several keys for every record it touches: bound and stepped on the
  /// SQLite statement itself.
  func metadata(forKey key: String) throws -> String? {
    try textRows("SELECT value FROM forager_metadata WHERE key = ?", binding: [Array(key.utf8)]) { Self.text($0, 0) }.first
  }

  func metadata(forKeys keys: [String]) throws -> [String: String] {
    guard !keys.isEmpty else { return [:] }
    let pairs = try textRows(
      "SELECT key, value FROM forager_metadata WHERE key IN (SELECT value FROM json_each(?))",
      binding: [Array(Self.jsonArray(keys).utf8)]
    ) { handle -> (String, String)? in
      guard let key = Self.text(handle, 0), let value = Self.text(handle, 1) else { return nil }
      return (key, value)
    }
    return Dictionary(pairs) { first, _ in first }
  }

  func metadataKeys(withPrefix prefix: String) throws -> [String] {
    // The keys in [prefix, prefix + U+10FFFF…): a range on the primary key. Keys sort by
    // their bytes (BINARY collation), and no UTF-8 text continues a prefix with 0xF4 0x90.
    let lower = Array(prefix.utf8)
    return try textRows(
      "SELECT key FROM forager_metadata WHERE key >= ? AND key < ? ORDER BY key", binding: [lower, lower + [0xF4, 0x90]]
    ) { Self.text($0, 0) }
  }

  func setMetadata(_ value: String?, forKey key: String) throws {
    if let value {
      // An upsert changes the value in place; REPLACE would delete and re-insert the row
      // and its key's index entry. Sync sets a record's stamps each time it changes.
      let statement = try cachedStatement(
        &metadataStatement,
        "INSERT INTO forager_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      )
      try run(statement, [key.databaseValue, value.databaseValue])
    } else {
      try run(db.cachedStatement(sql: "DELETE FROM forager_metadata WHERE key = ?"), [key.databaseValue])
    }
  }
}
