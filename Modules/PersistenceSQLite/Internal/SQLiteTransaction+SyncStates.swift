import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

/// Sync's record states, one row per record in `forager_sync_states` (``SchemaBuilder``),
/// with the semantic key each holds in an index of its own. A pulled record's state and
/// its key entry are then one INSERT: kept as two metadata entries (the state, and the
/// key's list of holders) they were two upserts, ≈ 0.45 s of every 100k records pulled.
/// Docs/PERFORMANCE.md, "Hand-written code and its measured reasons".
extension SQLiteTransaction {
  static let syncStatesTable = "forager_sync_states"

  func syncStates(_ kind: EntityKind, ids: [UUID]) throws -> [UUID: String] {
    var texts: [UUID: String] = [:]
    texts.reserveCapacity(ids.count)
    try readByTexts(
      many: &syncStatesByIDsStatement, Self.syncStatesByIDsSQL, one: &syncStateByIDStatement, Self.syncStateByIDSQL,
      fixed: kind.rawValue, texts: ids.map(\.lowercaseText)
    ) { row in
      if let id = Self.text(row, 0).flatMap({ UUID(hyphenatedHex: $0) }), let text = Self.text(row, 1) { texts[id] = text }
    }
    return texts
  }

  func syncStateHolders(_ kind: EntityKind, keys: [String]) throws -> [String: [UUID]] {
    var holders: [String: [UUID]] = [:]
    try readByTexts(
      many: &syncHoldersByKeysStatement, Self.syncHoldersByKeysSQL, one: &syncHoldersByKeyStatement, Self.syncHoldersByKeySQL,
      fixed: kind.rawValue, texts: Array(Set(keys))
    ) { row in
      if let key = Self.text(row, 0), let id = Self.text(row, 1).flatMap({ UUID(hyphenatedHex: $0) }) {
        holders[key, default: []].append(id)
      }
    }
    return holders
  }

  func syncStateIDs(_ kind: EntityKind) throws -> [UUID] {
    try textRows("SELECT id FROM \(Self.syncStatesTable) WHERE kind = ?", binding: [Array(kind.rawValue.utf8)]) { row in
      Self.text(row, 0).flatMap { UUID(hyphenatedHex: $0) }
    }
  }

  func setSyncState(_ text: String?, key: String?, kind: EntityKind, id: UUID, keyUnchanged: Bool) throws {
    touched.metadata = true
    guard let text else {
      try run(
        "DELETE FROM \(Self.syncStatesTable) WHERE kind = ? AND id = ?", [kind.rawValue.databaseValue, id.lowercaseText.databaseValue])
      return
    }
    let statement =
      try keyUnchanged
      ? cachedStatement(&syncStateOnlyStatement, Self.syncStateOnlyUpsertSQL)
      : cachedStatement(&syncStateStatement, Self.syncStateUpsertSQL)
    var (kindText, idText, stateText) = (kind.rawValue, id.lowercaseText, text)
    let length = kindText.utf8.count + idText.utf8.count + stateText.utf8.count + (key?.utf8.count ?? 0)
    try withHandle(statement) { handle in
      try boundTexts.binding(length: length) { texts in
        texts.bind(&kindText, to: handle, at: 1)
        texts.bind(&idText, to: handle, at: 2)
        if var heldKey = key { texts.bind(&heldKey, to: handle, at: 3) } else { sqlite3_bind_null(handle, 3) }
        texts.bind(&stateText, to: handle, at: 4)
        try step(statement)
      }
    }
  }

  /// An upsert changes the row in place (REPLACE would delete and insert it again). An
  /// update that sets the key column writes the key's index entry again even when the key
  /// is the same (≈ 2 µs of every state write): when the caller knows the stored key is
  /// `key`, the state alone is set.
  static let syncStateUpsertSQL = """
    INSERT INTO \(syncStatesTable) (kind, id, key, state) VALUES (?, ?, ?, ?)
    ON CONFLICT (kind, id) DO UPDATE SET key = excluded.key, state = excluded.state
    """
  static let syncStateOnlyUpsertSQL = """
    INSERT INTO \(syncStatesTable) (kind, id, key, state) VALUES (?, ?, ?, ?)
    ON CONFLICT (kind, id) DO UPDATE SET state = excluded.state
    """
  static let syncStateByIDSQL = "SELECT id, state FROM \(syncStatesTable) WHERE kind = ?1 AND id = ?2"
  static let syncStatesByIDsSQL = "SELECT id, state FROM \(syncStatesTable) WHERE kind = ?1 AND id IN (\(parameters(from: 2)))"
  /// `key IN (…)` implies `key IS NOT NULL`, so SQLite uses the partial index of keys.
  static let syncHoldersByKeySQL = "SELECT key, id FROM \(syncStatesTable) WHERE kind = ?1 AND key = ?2"
  static let syncHoldersByKeysSQL = "SELECT key, id FROM \(syncStatesTable) WHERE kind = ?1 AND key IN (\(parameters(from: 2)))"

  /// ``keysPerRead`` numbered parameters from `first` on: `?2, ?3, …`.
  private static func parameters(from first: Int) -> String {
    (first..<(first + keysPerRead)).map { "?\($0)" }.joined(separator: ", ")
  }
}
