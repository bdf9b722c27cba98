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
    let statement = try cachedStatement(&metadataByKeyStatement, Self.metadataByKeySQL)
    return try withHandle(statement) { handle in
      var key = key
      key.withUTF8 { Self.bindText($0, to: handle, at: 1) }
      var value: String?
      try step(statement) { value = Self.text($0, 1) }
      return value
    }
  }

  /// Reads ``keysPerRead`` keys per step of one prepared statement (``readByTexts``).
  func metadata(forKeys keys: [String]) throws -> [String: String] {
    var values: [String: String] = [:]
    values.reserveCapacity(keys.count)
    try readByTexts(
      many: &metadataByKeysStatement, Self.metadataByKeysSQL, one: &metadataByKeyStatement, Self.metadataByKeySQL,
      fixed: nil, texts: keys
    ) { row in
      if let key = Self.text(row, 0), let value = Self.text(row, 1) { values[key] = value }
    }
    return values
  }

  static let keysPerRead = 64
  /// One key's row: read by ``metadata(forKey:)`` and by ``metadata(forKeys:)`` for the
  /// few keys it reads one by one.
  static let metadataByKeySQL = "SELECT key, value FROM forager_metadata WHERE key = ?"
  static let metadataByKeysSQL =
    "SELECT key, value FROM forager_metadata WHERE key IN (" + Array(repeating: "?", count: keysPerRead).joined(separator: ", ") + ")"

  func metadataKeys(withPrefix prefix: String) throws -> [String] {
    try metadataKeys(in: prefix, sqlLimit: -1)
  }

  func metadataKeys(withPrefix prefix: String, limit: Int) throws -> [String] {
    try metadataKeys(in: prefix, sqlLimit: Int64(max(0, limit)))
  }

  /// The keys in [prefix, prefix + U+10FFFF…): a range on the primary key. Keys sort by
  /// their bytes (BINARY collation), and no UTF-8 text continues a prefix with 0xF4 0x90.
  /// A negative limit is SQLite's "no limit". Sync reads a range for most records it
  /// touches: the statement is kept, and its bounds bound from the prefix's own UTF-8.
  private func metadataKeys(in prefix: String, sqlLimit: Int64) throws -> [String] {
    let statement = try cachedStatement(&metadataPrefixStatement, Self.metadataPrefixSQL)
    return try withHandle(statement) { handle in
      var prefix = prefix
      prefix.withUTF8 { bytes in
        Self.bindText(bytes, to: handle, at: 1)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 2) { upper in
          _ = upper.initialize(from: bytes)
          upper[bytes.count] = 0xF4
          upper[bytes.count + 1] = 0x90
          Self.bindText(UnsafeBufferPointer(upper), to: handle, at: 2)
        }
      }
      sqlite3_bind_int64(handle, 3, sqlLimit)
      var keys: [String] = []
      try step(statement) { if let key = Self.text($0, 0) { keys.append(key) } }
      return keys
    }
  }

  static let metadataPrefixSQL = "SELECT key FROM forager_metadata WHERE key >= ?1 AND key < ?2 ORDER BY key LIMIT ?3"

  func setMetadata(_ value: String?, forKey key: String) throws {
    touched.metadata = true
    if let value {
      // An upsert changes the value in place; REPLACE would delete and re-insert the row
      // and its key's index entry. Sync sets a record's stamps each time it changes.
      let statement = try cachedStatement(
        &metadataStatement,
        "INSERT INTO forager_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      )
      try withHandle(statement) { handle in
        var (key, value) = (key, value)
        key.withUTF8 { Self.bindText($0, to: handle, at: 1) }
        value.withUTF8 { Self.bindText($0, to: handle, at: 2) }
        try step(statement)
      }
    } else {
      try run(db.cachedStatement(sql: "DELETE FROM forager_metadata WHERE key = ?"), [key.databaseValue])
    }
  }
}
