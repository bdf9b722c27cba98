package import Foundation
package import GRDB
import Model
package import Persistence

/// Seams for the `Migration` module, which upgrades files this backend refuses to open
/// (schema v1 and v2, Docs/DESIGN.md §3). Package access: clients open stores with
/// ``SQLiteStore``; only code in this package builds or inspects tables itself.
package enum SQLiteSchemaSupport {
  /// Creates today's tables (change log, metadata, one table per kind with its indexes)
  /// on `db`, inside the caller's transaction.
  /// - Parameter uniqueConstraints: false for schema v2 (keys indexed, not yet unique),
  ///   true for v3.
  package static func createTables(_ db: Database, uniqueConstraints: Bool) throws {
    try SchemaBuilder.createTables(db, uniqueConstraints: uniqueConstraints)
  }

  /// Adds the unique indexes over live rows of every unique kind (v2 → v3). Throws a
  /// constraint error when two live records of a unique kind share a key.
  package static func createUniqueConstraints(_ db: Database) throws {
    for kind in EntityKind.allCases { try SchemaBuilder.createUniqueIndex(db, TableLayout.of(kind)) }
  }

  /// Upgrades a v3 file to v4 inside the caller's transaction (weekly lists keyed by week
  /// and name, those sharing a key merged; `WeekIdentityUpgrade`), without setting the
  /// version. Returns the merged groups.
  package static func upgradeWeekIdentity(_ db: Database, now: Date) throws -> [SQLiteMergeSet.FoldedGroup] {
    try WeekIdentityUpgrade.run(db, now: now)
  }

  /// Gives every weekly list its key inside the caller's transaction, adding the column
  /// when the file has none (a v2 file written before lists had keys), so that the dedup
  /// step merges lists like every unique kind.
  package static func keyWeeklyLists(_ db: Database, now: Date) throws {
    try WeekIdentityUpgrade.keyLists(db, now: now)
  }

  /// A store writer over an open connection inside the caller's transaction: the same
  /// record mapping, validation and change log as ``SQLiteStore``, whatever the file's
  /// `user_version` says (the tables must have today's layout).
  package static func writer(_ db: Database, origin: ChangeOrigin, now: Date) -> any StoreWriter {
    SQLiteTransaction(db: db, origin: origin, now: now)
  }

  /// Drops the per-kind live-record counter inside the caller's transaction: the
  /// migration's writers change live records without counting them, and a store that
  /// opens the file next counts them once and rebuilds it.
  package static func dropLiveCounts(_ db: Database) throws {
    try LiveCounts.drop(db)
  }

  /// The text form ids are stored in (lowercase), which the keeper order also compares.
  package static func storageText(_ id: UUID) -> String { id.storageText }
}
