import GRDB
import Model
import Persistence

/// Creates and checks the tables of a Forager SQLite file.
enum SchemaBuilder {
  static func prepare(_ db: Database, location: String) throws {
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
    if version != 0 && version < SQLiteStore.schemaVersion {
      throw StoreError.unavailable(
        location: location,
        reason: "the store has schema v\(version) and must be migrated to v\(SQLiteStore.schemaVersion) first (run `migrate`)"
      )
    }
    try db.inTransaction {
      try db.execute(sql: """
        CREATE TABLE IF NOT EXISTS forager_changes (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL, id TEXT NOT NULL, operation TEXT NOT NULL,
          fields TEXT NOT NULL, origin TEXT NOT NULL, timestamp REAL NOT NULL)
        """)
      try db.execute(sql: "CREATE TABLE IF NOT EXISTS forager_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
      for kind in EntityKind.allCases {
        try createOrExtendTable(db, TableLayout.of(kind))
      }
      try db.execute(sql: "PRAGMA user_version = \(SQLiteStore.schemaVersion)")
      return .commit
    }
  }

  /// Creates a kind's table and indexes, or adds columns for fields added to its schema
  /// since the file was written.
  private static func createOrExtendTable(_ db: Database, _ layout: TableLayout) throws {
    let table = layout.table
    if try db.tableExists(table) {
      let existing = Set(try db.columns(in: table).map(\.name))
      for field in layout.schema.fields where !existing.contains(field.name) {
        try db.execute(sql: "ALTER TABLE \(table.quotedDatabaseIdentifier) ADD COLUMN \(field.name.quotedDatabaseIdentifier) \(TableLayout.sqlType(field.type))")
      }
    } else {
      let columns = layout.schema.fields.map { "\($0.name.quotedDatabaseIdentifier) \(TableLayout.sqlType($0.type))" }
      try db.execute(sql: """
        CREATE TABLE \(table.quotedDatabaseIdentifier) (
          id TEXT PRIMARY KEY NOT NULL, createdAt REAL NOT NULL, updatedAt REAL NOT NULL, deletedAt REAL,
          ownerID TEXT NOT NULL, sharingScope TEXT NOT NULL\(columns.isEmpty ? "" : ", " + columns.joined(separator: ", ")))
        """)
    }
    if let key = layout.schema.semanticKeyField {
      try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("\(table)_key".quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)(\(key.quotedDatabaseIdentifier))")
      if layout.schema.identity.isUnique {
        try db.execute(sql: """
          CREATE UNIQUE INDEX IF NOT EXISTS \("\(table)_unique_live_key".quotedDatabaseIdentifier)
          ON \(table.quotedDatabaseIdentifier)(\(key.quotedDatabaseIdentifier)) WHERE deletedAt IS NULL
          """)
      }
    }
    for field in layout.schema.fields where field.type.referencedKind != nil {
      if case .reference = field.type {
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("\(table)_\(field.name)".quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)(\(field.name.quotedDatabaseIdentifier))")
      }
    }
  }
}
