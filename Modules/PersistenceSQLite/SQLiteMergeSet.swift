package import Foundation
package import GRDB
package import Model
package import Persistence

/// The dedup step's set-based writes, a seam for the `Migration` module: the loser →
/// keeper pairs of one unique kind in a temporary table, and single statements over it
/// that fold the losers' values into the keepers (``fold(_:)``), tombstone the losers and
/// re-point references to them, appending the change-log entries the per-record writer
/// would.
///
/// Per record, merging a group costs a read, an update and a change-log insert for each
/// loser, plus one query per loser and relationship to find what refers to it (a scan of
/// every recipe's tag list for a tag); with 100k groups that is many seconds. Here each of
/// those is one statement driven by SQLite's indexes; only the groups' ids and names, and
/// the values folding drops, are read back for the report.
///
/// ```swift
/// let merges = try SQLiteMergeSet(db, kind: .category, origin: .migration, now: now)  // in a transaction
/// let groups = try merges.fold(["sortOrder": .first])
/// try merges.tombstoneLosers(at: now)
/// let repointed = try merges.repointReferences()
/// try merges.drop()
/// ```
package struct SQLiteMergeSet {
  package let kind: EntityKind
  /// How many live records lose to a smaller id with their key.
  package let loserCount: Int
  let db: Database
  let layout: TableLayout
  /// Writes records and change-log entries with the caller's origin and time.
  let writer: SQLiteTransaction

  static let mapTable = "forager_merge_map"

  /// Pairs every live record of `kind` with the smallest id among the live records that
  /// share its non-empty semantic key (ids compared as their lowercase text, the keeper
  /// order), keeping the pairs whose two ids differ. Call ``drop()`` before the next kind.
  /// - Parameters:
  ///   - origin: the origin of the change-log entries (`.migration`).
  ///   - now: the transaction's time, stamped on the change-log entries.
  /// - Throws: when the statements fail (the caller's transaction then rolls back).
  package init(_ db: Database, kind: EntityKind, origin: ChangeOrigin, now: Date) throws {
    self.db = db
    self.kind = kind
    writer = SQLiteTransaction(db: db, origin: origin, now: now)
    layout = TableLayout.of(kind)
    let table = layout.table.quotedDatabaseIdentifier
    try db.execute(sql: "DROP TABLE IF EXISTS temp.\(Self.mapTable)")
    try db.execute(sql: "CREATE TEMP TABLE \(Self.mapTable) (loser TEXT PRIMARY KEY NOT NULL, keeper TEXT NOT NULL) WITHOUT ROWID")
    guard let keyField = layout.schema.semanticKeyField else {
      loserCount = 0
      return
    }
    let key = keyField.quotedDatabaseIdentifier
    try db.execute(
      sql: """
        INSERT INTO temp.\(Self.mapTable) (loser, keeper)
        SELECT t.id, g.keeper FROM \(table) t JOIN (
          SELECT \(key) AS k, MIN(id) AS keeper FROM \(table)
          WHERE deletedAt IS NULL AND \(key) <> '' GROUP BY \(key) HAVING COUNT(*) > 1
        ) g ON t.\(key) = g.k
        WHERE t.deletedAt IS NULL AND t.id <> g.keeper
        """)
    loserCount = db.changesCount
  }

  /// Tombstones every loser (`deletedAt` and `updatedAt` set to `date`), with the same
  /// change-log entry `StoreWriter/tombstoneRecord(_:id:at:)` appends: a delete
  /// changing no field, stamped with the transaction's `now`.
  package func tombstoneLosers(at date: Date) throws {
    guard loserCount > 0 else { return }
    let map = "temp.\(Self.mapTable)"
    try appendChanges(kind, .delete, fields: [], ids: "SELECT loser AS id FROM \(map) ORDER BY keeper, loser")
    try db.execute(
      sql: "UPDATE \(layout.table.quotedDatabaseIdentifier) SET deletedAt = ?, updatedAt = ? WHERE id IN (SELECT loser FROM \(map))",
      arguments: [date.timeIntervalSinceReferenceDate, date.timeIntervalSinceReferenceDate]
    )
  }

  /// Points every live reference to a loser at its keeper. A to-one reference is one
  /// UPDATE per relationship; a list (a recipe's tags) is rewritten per record that holds
  /// a loser — each loser replaced by its keeper, then repeats dropped, the first kept.
  /// Each changed record gets one change-log update naming the field.
  /// - Returns: the number of (record, loser) pairs re-pointed.
  package func repointReferences() throws -> Int {
    guard loserCount > 0 else { return 0 }
    let map = "temp.\(Self.mapTable)"
    var count = 0
    for (owner, field) in EntitySchema.references(to: kind) {
      let ownerLayout = TableLayout.of(owner)
      let table = ownerLayout.table.quotedDatabaseIdentifier, column = field.name.quotedDatabaseIdentifier
      switch field.type {
      case .referenceList:
        let holders = try writer.rows(
          of: db.makeStatement(
            sql: """
              SELECT \(ownerLayout.selectColumns) FROM \(table) WHERE deletedAt IS NULL
              AND EXISTS (SELECT 1 FROM json_each(\(column)) j JOIN \(map) m ON m.loser = j.value) ORDER BY id
              """), ownerLayout)
        let keeper = try db.cachedStatement(sql: "SELECT keeper FROM \(map) WHERE loser = ?")
        for old in holders {
          var seen = Set<UUID>()
          var ids: [UUID] = []
          var losers = Set<UUID>()
          for id in old[field.name].references {
            var target = id
            if let text = try String.fetchOne(keeper, arguments: [id.storageText]), let kept = UUID(storageText: text) {
              losers.insert(id)
              target = kept
            }
            if seen.insert(target).inserted { ids.append(target) }
          }
          var record = old
          record[field.name] = .referenceList(ids)
          try writer.updateRecord(record, replacing: old)
          count += losers.count
        }
      case .reference:
        let affected = "FROM \(table) o JOIN \(map) m ON o.\(column) = m.loser WHERE o.deletedAt IS NULL"
        count += try Int.fetchOne(db, sql: "SELECT COUNT(*) \(affected)") ?? 0
        try appendChanges(owner, .update, fields: [field.name], ids: "SELECT o.id AS id \(affected) ORDER BY m.loser, o.id")
        try db.execute(
          sql: """
            UPDATE \(table) SET \(column) = (SELECT keeper FROM \(map) WHERE loser = \(table).\(column))
            WHERE deletedAt IS NULL AND \(column) IN (SELECT loser FROM \(map))
            """)
      default:
        continue
      }
    }
    return count
  }

  /// Records every loser → keeper pair as a pending merge with `origin`, as
  /// `StoreWriter/recordMerge(_:loser:into:origin:)` does for one (`PendingMerge`).
  package func recordPendingMerges(origin: ChangeOrigin) throws {
    guard loserCount > 0 else { return }
    try db.execute(
      sql: """
        INSERT INTO forager_metadata (key, value) SELECT ? || loser || '/' || keeper, ? FROM temp.\(Self.mapTable) WHERE true
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """, arguments: [PendingMerge.prefix(of: kind), origin.rawValue])
  }

  /// Removes the temporary table.
  package func drop() throws {
    try db.execute(sql: "DROP TABLE IF EXISTS temp.\(Self.mapTable)")
  }

  /// One change-log row per id the `ids` SELECT (a column `id`) yields, in its order.
  func appendChanges(_ kind: EntityKind, _ operation: ChangeOperation, fields: [String], ids: String) throws {
    guard writer.origin.isLogged else { return }
    try db.execute(
      sql: """
        INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp)
        SELECT ?, id, ?, ?, ?, ? FROM (\(ids))
        """,
      arguments: [
        kind.rawValue, operation.rawValue, FieldValue.jsonArray(fields), writer.origin.rawValue,
        writer.now.timeIntervalSinceReferenceDate,
      ]
    )
  }
}
