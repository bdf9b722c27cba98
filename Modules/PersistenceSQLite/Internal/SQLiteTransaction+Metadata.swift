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

  /// Reads the ranges of ``prefixesPerRead`` prefixes per step of one prepared statement
  /// (a `UNION ALL` of range reads on the primary key, each row tagged with its range):
  /// sync asks for the key index and dependency entries of a page of records at once, most
  /// of them empty: ≈ 7k instructions per prefix, where one statement each costs ≈ 10k.
  func metadataKeys(withPrefixes prefixes: [String]) throws -> [[String]] {
    guard !prefixes.isEmpty else { return [] }
    let statement = try cachedStatement(&metadataByPrefixesStatement, Self.metadataByPrefixesSQL)
    let handle = statement.sqliteStatement
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    var found = [[String]](repeating: [], count: prefixes.count)
    for start in stride(from: 0, to: prefixes.count, by: Self.prefixesPerRead) {
      let count = min(Self.prefixesPerRead, prefixes.count - start)
      // Each range of the statement costs a search even when unused: a few prefixes are
      // read one statement each.
      guard count >= Self.prefixesPerRead / 4 else {
        for index in start..<start + count { found[index] = try metadataKeys(withPrefix: prefixes[index]) }
        continue
      }
      sqlite3_reset(handle)
      for slot in 0..<Self.prefixesPerRead {
        // A short last chunk binds empty ranges (lower bound above the upper) to the rest.
        let bounds: ([UInt8], [UInt8]) =
          if slot < count {
            (Array(prefixes[start + slot].utf8), Array(prefixes[start + slot].utf8) + [0xF4, 0x90])
          } else {
            ([0xF4, 0x90], [])
          }
        bounds.0.withUnsafeBufferPointer { Self.bindText($0, to: handle, at: Int32(2 * slot + 1)) }
        bounds.1.withUnsafeBufferPointer { Self.bindText($0, to: handle, at: Int32(2 * slot + 2)) }
      }
      while true {
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
          guard code == SQLITE_DONE else { throw failure(code, statement) }
          break
        }
        let slot = Int(sqlite3_column_int64(handle, 0))
        if slot < count, let key = Self.text(handle, 1) { found[start + slot].append(key) }
      }
    }
    // Each range is read in key order; SQL promises no order for a UNION ALL, so it is
    // checked (and a range sorted if it ever came otherwise).
    for index in found.indices where !found[index].isByteSorted { found[index].sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    return found
  }

  static let prefixesPerRead = 32
  static let metadataByPrefixesSQL = (0..<prefixesPerRead).map {
    "SELECT \($0), key FROM forager_metadata WHERE key >= ?\(2 * $0 + 1) AND key < ?\(2 * $0 + 2)"
  }.joined(separator: " UNION ALL ")

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

extension [String] {
  /// Whether the strings are in ascending byte order.
  fileprivate var isByteSorted: Bool {
    zip(self, dropFirst()).allSatisfy { !$1.utf8.lexicographicallyPrecedes($0.utf8) }
  }
}
