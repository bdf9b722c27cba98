import GRDB
import Model

/// Side tables indexing the elements of the text lists of unique kinds (today the
/// ingredient aliases), so ``Persistence/RecordFilter/hasElement(_:_:)`` — "which template
/// has the alias 'scallion'" — is an index lookup instead of a scan of every row's JSON.
///
/// SQLite keeps them current itself with triggers on the kind's table, so every writer
/// (the store, the migration's writer) maintains them; a file without them (older, or
/// just migrated) gets them, filled from its rows, the next time a store opens it.
enum ElementIndex {
  struct Entry {
    let table: String
    let field: String
    var sideTable: String { "\(table)_\(field)_elements" }
  }

  static let entries: [Entry] = EntityKind.allCases.flatMap { kind -> [Entry] in
    let schema = kind.schema
    guard schema.identity.isUnique else { return [] }
    return schema.fields.compactMap { field in
      if case .textList = field.type { return Entry(table: kind.rawValue, field: field.name) }
      return nil
    }
  }

  /// The side table for a kind's field, when it is one that is indexed.
  static func sideTable(_ kind: EntityKind, _ field: String) -> String? {
    entries.first { $0.table == kind.rawValue && $0.field == field }?.sideTable
  }

  /// Creates missing side tables (filled from the existing rows) and their triggers.
  static func prepare(_ db: Database) throws {
    try db.inTransaction {
      for entry in entries {
        let side = entry.sideTable.quotedDatabaseIdentifier
        let table = entry.table.quotedDatabaseIdentifier
        let field = entry.field.quotedDatabaseIdentifier
        guard try !db.tableExists(entry.sideTable) else { continue }
        try db.execute(
          sql: """
            CREATE TABLE \(side) (value TEXT NOT NULL, id TEXT NOT NULL);
            CREATE INDEX \("\(entry.sideTable)_value".quotedDatabaseIdentifier) ON \(side)(value);
            CREATE INDEX \("\(entry.sideTable)_id".quotedDatabaseIdentifier) ON \(side)(id);
            INSERT INTO \(side) (value, id)
              SELECT element.value, row.id FROM \(table) AS row, json_each(row.\(field)) AS element
              WHERE row.\(field) IS NOT NULL AND row.\(field) != '[]';
            CREATE TRIGGER IF NOT EXISTS \("\(entry.sideTable)_insert".quotedDatabaseIdentifier)
            AFTER INSERT ON \(table) WHEN NEW.\(field) IS NOT NULL AND NEW.\(field) != '[]'
            BEGIN
              INSERT INTO \(side) (value, id) SELECT value, NEW.id FROM json_each(NEW.\(field));
            END;
            CREATE TRIGGER IF NOT EXISTS \("\(entry.sideTable)_update".quotedDatabaseIdentifier)
            AFTER UPDATE OF \(field) ON \(table) WHEN OLD.\(field) IS NOT NEW.\(field)
            BEGIN
              DELETE FROM \(side) WHERE id = OLD.id;
              INSERT INTO \(side) (value, id) SELECT value, NEW.id FROM json_each(NEW.\(field));
            END;
            CREATE TRIGGER IF NOT EXISTS \("\(entry.sideTable)_delete".quotedDatabaseIdentifier)
            AFTER DELETE ON \(table)
            BEGIN
              DELETE FROM \(side) WHERE id = OLD.id;
            END;
            """)
      }
      return .commit
    }
  }
}
