import Foundation
import GRDB
import Model
import Persistence

/// Creates and checks the tables of a Forager SQLite file.
enum SchemaBuilder {
  /// Opens a file for this build: creates today's tables in a new file, extends an
  /// existing one with fields and kinds added since (a v4 file gains v5's stores table and
  /// columns, a v5 file v6's ingredient groups), and upgrades a v3 file to v4 first (``WeekIdentityUpgrade``, at the time
  /// `now` gives; it is read only then).
  static func prepare(_ db: Database, location: String, now: () -> Date) throws {
    try db.execute(sql: "PRAGMA journal_mode = WAL")
    let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    if version == 0 && !tables.isEmpty {
      throw StoreError.unavailable(location: location, reason: "the file is a SQLite database but not a Forager store")
    }
    if version > SQLiteStore.schemaVersion {
      throw StoreError.unavailable(
        location: location,
        reason: "written by a newer Forager (schema v\(version); this build reads up to v\(SQLiteStore.schemaVersion))"
      )
    }
    if version != 0 && version < WeekIdentityUpgrade.fromVersion {
      throw StoreError.unavailable(
        location: location,
        reason: "the store has schema v\(version) and must be migrated to v\(SQLiteStore.schemaVersion) first: run "
          + "`migrate \(location.hasPrefix("sqlite:") ? String(location.dropFirst(7)) : location) --dry-run` to see what "
          + "would change, then the same without --dry-run (a backup is made first; see Docs/MIGRATIONS.md)"
      )
    }
    try db.inTransaction {
      if version == WeekIdentityUpgrade.fromVersion { _ = try WeekIdentityUpgrade.run(db, now: now()) }
      try createTables(db, uniqueConstraints: true)
      try db.execute(sql: "PRAGMA user_version = \(SQLiteStore.schemaVersion)")
      return .commit
    }
  }

  /// Creates (or extends) the change log, the metadata table and one table per kind.
  /// - Parameter uniqueConstraints: whether to add the unique indexes over live rows of
  ///   unique kinds (schema v3); schema v2 has the same tables without them.
  static func createTables(_ db: Database, uniqueConstraints: Bool) throws {
    try db.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS forager_changes (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL, id TEXT NOT NULL, operation TEXT NOT NULL,
          fields TEXT NOT NULL, origin TEXT NOT NULL, timestamp REAL NOT NULL)
        """)
    // Keyed by text and read and written by key only: WITHOUT ROWID keeps each row in the
    // key's own b-tree, one search and one write per access instead of an index and a
    // table (sync reads and writes a record's stamps here for every record it touches).
    // Files from before are rebuilt once.
    let metadata = "(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID"
    if let existing = try storedSQL(db, type: "table", name: "forager_metadata") {
      if !existing.uppercased().contains("WITHOUT ROWID") {
        try db.execute(
          sql: """
            CREATE TABLE forager_metadata_rebuilt \(metadata);
            INSERT INTO forager_metadata_rebuilt (key, value) SELECT key, value FROM forager_metadata;
            DROP TABLE forager_metadata;
            ALTER TABLE forager_metadata_rebuilt RENAME TO forager_metadata;
            """)
      }
    } else {
      try db.execute(sql: "CREATE TABLE forager_metadata \(metadata)")
    }
    // Sync's state of each record, keyed by record, with the semantic key it holds indexed
    // (``SQLiteTransaction/syncStates(_:ids:)``).
    try db.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS \(SQLiteTransaction.syncStatesTable) (
          kind TEXT NOT NULL, id TEXT NOT NULL, key TEXT, state TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS \(SQLiteTransaction.syncStatesTable)_key
          ON \(SQLiteTransaction.syncStatesTable) (kind, key) WHERE key IS NOT NULL;
        """)
    // Sync's history of record states (``SQLiteTransaction/syncHistory(_:id:)``), bounded
    // by sync; the sequence is never reused, so entries keep their order when the oldest go.
    try db.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS \(SQLiteTransaction.syncHistoryTable) (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id TEXT NOT NULL, entry TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS \(SQLiteTransaction.syncHistoryTable)_record
          ON \(SQLiteTransaction.syncHistoryTable) (kind, id, sequence);
        """)
    for kind in EntityKind.allCases {
      try createOrExtendTable(db, TableLayout.of(kind), keyIndexOverAllRows: !uniqueConstraints)
      if uniqueConstraints { try createUniqueIndex(db, TableLayout.of(kind)) }
    }
  }

  /// The statement that created the table or index `name`, as the file holds it.
  private static func storedSQL(_ db: Database, type: String, name: String) throws -> String? {
    try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = ? AND name = ?", arguments: [type, name])
  }

  /// Adds the unique index over live rows of a unique kind's semantic key (schema v3),
  /// and indexes the key of its tombstones apart.
  ///
  /// Until it is added, the key is indexed over all rows (`<table>_key`). With it, that
  /// index would hold every live key a second time: one b-tree more for every row written,
  /// ≈ a fifth of a template's INSERT. The tombstones' keys get an index of their own
  /// (`<table>_deleted_key`), so each row is in one of the two, and a lookup that includes
  /// tombstones reads both (``TableLayout/selectByKeySQL``). A file with the index over all
  /// rows has it replaced here, once.
  static func createUniqueIndex(_ db: Database, _ layout: TableLayout) throws {
    guard let key = layout.schema.semanticKeyField, layout.schema.identity.isUnique else { return }
    let table = layout.table
    try db.execute(
      sql: """
        CREATE UNIQUE INDEX IF NOT EXISTS \("\(table)_unique_live_key".quotedDatabaseIdentifier)
        ON \(table.quotedDatabaseIdentifier)(\(key.quotedDatabaseIdentifier)) WHERE deletedAt IS NULL;
        CREATE INDEX IF NOT EXISTS \("\(table)_deleted_key".quotedDatabaseIdentifier)
        ON \(table.quotedDatabaseIdentifier)(\(key.quotedDatabaseIdentifier)) WHERE deletedAt IS NOT NULL;
        DROP INDEX IF EXISTS \("\(table)_key".quotedDatabaseIdentifier);
        """)
  }

  /// Creates a kind's table and indexes, or adds columns for fields added to its schema
  /// since the file was written.
  /// - Parameter keyIndexOverAllRows: index a unique kind's key over all its rows, for a
  ///   file without the unique index over live rows (``createUniqueIndex(_:_:)``); other
  ///   kinds' keys are indexed over all rows always.
  static func createOrExtendTable(_ db: Database, _ layout: TableLayout, keyIndexOverAllRows: Bool) throws {
    let table = layout.table
    if try db.tableExists(table) {
      let existing = Set(try db.columns(in: table).map(\.name))
      for field in layout.schema.fields where !existing.contains(field.name) {
        try db.execute(
          sql:
            "ALTER TABLE \(table.quotedDatabaseIdentifier) ADD COLUMN \(field.name.quotedDatabaseIdentifier) \(TableLayout.sqlType(field.type))"
        )
      }
    } else {
      let columns = layout.schema.fields.map { "\($0.name.quotedDatabaseIdentifier) \(TableLayout.sqlType($0.type))" }
      try db.execute(
        sql: """
          CREATE TABLE \(table.quotedDatabaseIdentifier) (
            id TEXT PRIMARY KEY NOT NULL, createdAt REAL NOT NULL, updatedAt REAL NOT NULL, deletedAt REAL,
            ownerID TEXT NOT NULL, sharingScope TEXT NOT NULL\(columns.isEmpty ? "" : ", " + columns.joined(separator: ", ")))
          """)
    }
    try LookupColumns.create(db, layout)
    if let key = layout.schema.semanticKeyField, keyIndexOverAllRows || !layout.schema.identity.isUnique {
      try db.execute(
        sql:
          "CREATE INDEX IF NOT EXISTS \("\(table)_key".quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)(\(key.quotedDatabaseIdentifier))"
      )
    }
    for field in layout.schema.fields {
      let name = "\(table)_\(field.name)".quotedDatabaseIdentifier, column = field.name.quotedDatabaseIdentifier
      if case .reference = field.type {
        // Over rows that hold a reference: a recipe without a book, an item without a
        // template, adds nothing to look up, and every insert of one would otherwise
        // write the index's last pages. `WHERE column = ?` (or `IN`) implies NOT NULL, so
        // every lookup by reference still uses it. Files written before indexes were
        // partial have the full index under the same name; it is rebuilt once.
        let sql = "CREATE INDEX IF NOT EXISTS \(name) ON \(table.quotedDatabaseIdentifier)(\(column)) WHERE \(column) IS NOT NULL"
        if let existing = try storedSQL(db, type: "index", name: "\(table)_\(field.name)"), !existing.contains(" WHERE ") {
          try db.execute(sql: "DROP INDEX \(name)")
        }
        try db.execute(sql: sql)
      } else if field.isIndexed {
        // Over live rows, like the listings that sort by it: otherwise SQLite prefers the
        // partial unique-key index for their `deletedAt IS NULL` and sorts every row.
        // Text ignoring ASCII case, as the prefix searches that use it do
        // (`RecordFilter.hasPrefix` is a LIKE, which only such an index serves).
        let collation = TableLayout.sqlType(field.type) == "TEXT" ? " COLLATE NOCASE" : ""
        try db.execute(
          sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(table.quotedDatabaseIdentifier)(\(column)\(collation)) WHERE deletedAt IS NULL")
      }
    }
  }
}
