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

  /// Reads ``keysPerRead`` keys per step of one prepared statement, its parameters bound
  /// from each key's own UTF-8 (a short last chunk repeats its last key): ≈ 6k
  /// instructions per key, against ≈ 7k for a JSON array unpacked by `json_each` (building
  /// the array, SQLite parsing it and indexing its values).
  func metadata(forKeys keys: [String]) throws -> [String: String] {
    guard !keys.isEmpty else { return [:] }
    let statement = try cachedStatement(&metadataByKeysStatement, Self.metadataByKeysSQL)
    let handle = statement.sqliteStatement
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    var values: [String: String] = [:]
    values.reserveCapacity(keys.count)
    for start in stride(from: 0, to: keys.count, by: Self.keysPerRead) {
      // The statement searches for each of its keys, repeated or not: a few keys are read
      // one statement each.
      guard keys.count - start >= Self.keysPerRead / 8 else {
        for key in keys[start...] { values[key] = try metadata(forKey: key) }
        break
      }
      sqlite3_reset(handle)
      for slot in 0..<Self.keysPerRead {
        var key = keys[min(start + slot, keys.count - 1)]
        key.withUTF8 { Self.bindText($0, to: handle, at: Int32(slot + 1)) }
      }
      while true {
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
          guard code == SQLITE_DONE else { throw failure(code, statement) }
          break
        }
        if let key = Self.text(handle, 0), let value = Self.text(handle, 1) { values[key] = value }
      }
    }
    return values
  }

  static let keysPerRead = 64
  static let metadataByKeysSQL =
    "SELECT key, value FROM forager_metadata WHERE key IN (" + Array(repeating: "?", count: keysPerRead).joined(separator: ", ") + ")"

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
