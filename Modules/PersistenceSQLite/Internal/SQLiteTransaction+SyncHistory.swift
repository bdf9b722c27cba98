import Foundation
import GRDB
import Model
import Persistence

/// Sync's record history, one row per entry in `forager_sync_history` (``SchemaBuilder``),
/// numbered by an autoincrementing sequence (never reused, so the numbers order entries
/// even after the oldest were dropped) and indexed by record.
extension SQLiteTransaction {
  static let syncHistoryTable = "forager_sync_history"

  func syncHistory(_ kind: EntityKind, id: UUID) throws -> [SyncHistoryRow] {
    try Row.fetchAll(
      db, sql: "SELECT sequence, kind, id, entry FROM \(Self.syncHistoryTable) WHERE kind = ? AND id = ? ORDER BY sequence",
      arguments: [kind.rawValue, id.lowercaseText]
    ).compactMap(Self.historyRow)
  }

  func syncHistory(after sequence: Int64, limit: Int) throws -> [SyncHistoryRow] {
    try Row.fetchAll(
      db, sql: "SELECT sequence, kind, id, entry FROM \(Self.syncHistoryTable) WHERE sequence > ? ORDER BY sequence LIMIT ?",
      arguments: [sequence, max(0, limit)]
    ).compactMap(Self.historyRow)
  }

  func appendSyncHistory(_ kind: EntityKind, id: UUID, text: String, keepingPerRecord: Int) throws -> Bool {
    let (kindValue, idValue) = (kind.rawValue.databaseValue, id.lowercaseText.databaseValue)
    try run(Self.appendHistorySQL, [kindValue, idValue, text.databaseValue])
    try run(Self.trimRecordHistorySQL, [kindValue, idValue, Int64(max(1, keepingPerRecord)).databaseValue])
    return db.changesCount > 0
  }

  func trimSyncHistory(keeping total: Int) throws -> [SyncHistoryRecord] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        DELETE FROM \(Self.syncHistoryTable) WHERE sequence <= (SELECT max(sequence) FROM \(Self.syncHistoryTable)) - ?
        RETURNING kind, id
        """,
      arguments: [Int64(max(0, total))])
    var records = Set<SyncHistoryRecord>()
    for row in rows {
      let (kindText, idText): (String, String) = (row[0], row[1])
      if let kind = EntityKind(rawValue: kindText), let id = UUID(hyphenatedHex: idText) {
        records.insert(SyncHistoryRecord(kind: kind, id: id))
      }
    }
    return Array(records)
  }

  static let appendHistorySQL = "INSERT INTO \(syncHistoryTable) (kind, id, entry) VALUES (?, ?, ?)"
  /// Drops a record's entries older than its newest `?3`: one range of the record's index.
  static let trimRecordHistorySQL = """
    DELETE FROM \(syncHistoryTable) WHERE kind = ?1 AND id = ?2 AND sequence <= (
      SELECT sequence FROM \(syncHistoryTable) WHERE kind = ?1 AND id = ?2 ORDER BY sequence DESC LIMIT 1 OFFSET ?3)
    """

  private static func historyRow(_ row: Row) -> SyncHistoryRow? {
    let (sequence, kindText, idText, text): (Int64, String, String, String) = (row[0], row[1], row[2], row[3])
    guard let kind = EntityKind(rawValue: kindText), let id = UUID(hyphenatedHex: idText) else { return nil }
    return SyncHistoryRow(sequence: sequence, kind: kind, id: id, text: text)
  }
}
