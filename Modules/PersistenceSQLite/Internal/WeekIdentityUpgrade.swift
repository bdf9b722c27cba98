import Foundation
import GRDB
import Model
import Persistence

/// Schema v3 → v4, inside the caller's transaction: weekly lists get their key (ISO week
/// and normalized name, `SemanticKey.listKey`, Docs/DESIGN.md §2) and the lists of one week that share
/// a name are merged into the one with the smallest id, as the dedup step merges every
/// unique kind (Docs/MIGRATIONS.md): the others' items move to it, a flag set on any copy
/// stays set, its notes are the first copy's that has some, the others are tombstoned and
/// each merge waits as a ``PendingMerge`` for the next sync, which replicates it as an edge.
///
/// Every write has the origin `migration`, so sync stamps it at the fixed migration stamp:
/// two devices that upgrade copies of one file write the same registers (Docs/SYNC.md).
/// A store opening a v3 file runs it (``SchemaBuilder/prepare(_:location:now:)``), and so
/// does `migrate` (``SQLiteSchemaSupport/upgradeWeekIdentity(_:now:)``).
enum WeekIdentityUpgrade {
  /// The version this step starts from.
  static let fromVersion = 3

  /// Keys every weekly list and merges those that share a key.
  /// - Returns: the merged groups, by key (empty when no week had two lists of one name).
  static func run(_ db: Database, now: Date) throws -> [SQLiteMergeSet.FoldedGroup] {
    try keyLists(db, now: now)
    // Tombstoning the merged copies changes the live counts; the store counts again.
    try LiveCounts.drop(db)
    let merges = try SQLiteMergeSet(db, kind: .weeklyList, origin: .migration, now: now)
    defer { try? merges.drop() }
    guard merges.loserCount > 0 else { return [] }
    let groups = try merges.fold(["isCompleted": .any, "notes": .first])
    try merges.tombstoneLosers(at: now)
    _ = try merges.repointReferences()
    try merges.recordPendingMerges(origin: .migration)
    return groups
  }

  /// Adds the key column to the lists' table when missing, and gives every list without a
  /// key the key of its week and name — live lists and tombstones alike, so that each is
  /// keyed however a device last saw it.
  static func keyLists(_ db: Database, now: Date) throws {
    let layout = TableLayout.of(.weeklyList)
    try SchemaBuilder.createOrExtendTable(db, layout, keyIndexOverAllRows: false)
    let writer = SQLiteTransaction(db: db, origin: .migration, now: now)
    let unkeyed = try db.makeStatement(
      sql: "SELECT \(layout.selectColumns) FROM \(layout.table.quotedDatabaseIdentifier) WHERE \"listKey\" IS NULL ORDER BY id")
    for old in try writer.rows(of: unkeyed, layout) {
      guard let key = old.keyOfItsName else { continue }
      var keyed = old
      keyed["listKey"] = .text(key)
      try writer.updateRecord(keyed, replacing: old)
    }
  }
}
