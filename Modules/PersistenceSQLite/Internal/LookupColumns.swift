import GRDB
import Model
import Persistence

/// Local lookup columns: for each field people find records by without a semantic key
/// (``Model/FieldDescriptor/isLookedUpByName``: a weekly list's name), a column
/// `lookup_<field>` holding the field's normalized name (``Persistence/RecordFilter/normalizedName(_:)``),
/// indexed, so ``Persistence/RecordFilter/hasNormalizedName(_:_:)`` — `list add … to
/// epicerie` — reads the records with that name instead of every record of the kind.
///
/// The column is derived and local: the store writes it with every insert of the record
/// and every update of the field (``TableLayout``), records never carry it, and sync never
/// sees it. A file from before it gets the column on open (``SchemaBuilder``), and
/// ``backfill(_:)`` fills every row that has none: an index lookup of the empty ones on
/// each open, so rows a build without the column inserted are filled too.
enum LookupColumns {
  /// One field's lookup column.
  struct Entry: Sendable {
    let field: String
    let column: String

    /// The column's value for a record: the normalized name, NULL without a name.
    func value(of record: Record) -> DatabaseValue {
      guard case .text(let name) = record[field] else { return .null }
      return RecordFilter.normalizedName(name).databaseValue
    }
  }

  static func column(for field: String) -> String { "lookup_\(field)" }

  static func entries(of schema: EntitySchema) -> [Entry] {
    schema.fields.compactMap { field in
      guard field.isLookedUpByName, case .text = field.type else { return nil }
      return Entry(field: field.name, column: column(for: field.name))
    }
  }

  /// Adds a kind's missing lookup columns and their indexes, inside the caller's
  /// transaction (rows already in the table are left for ``backfill(_:)``).
  static func create(_ db: Database, _ layout: TableLayout) throws {
    guard !layout.lookups.isEmpty else { return }
    let table = layout.table.quotedDatabaseIdentifier
    let existing = Set(try db.columns(in: layout.table).map(\.name))
    for entry in layout.lookups {
      let column = entry.column.quotedDatabaseIdentifier
      if !existing.contains(entry.column) { try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) TEXT") }
      // Over every row, not only live ones: backfill finds the rows without a value by it.
      try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("\(layout.table)_\(entry.column)".quotedDatabaseIdentifier) ON \(table)(\(column))")
    }
  }

  /// Fills the lookup column of every row that has a name but no lookup value.
  static func backfill(_ db: Database) throws {
    for kind in EntityKind.allCases {
      let layout = TableLayout.of(kind)
      let table = layout.table.quotedDatabaseIdentifier
      for entry in layout.lookups {
        let field = entry.field.quotedDatabaseIdentifier, column = entry.column.quotedDatabaseIdentifier
        let rows = try Row.fetchAll(
          db, sql: "SELECT id, \(field) AS name FROM \(table) WHERE \(column) IS NULL AND typeof(\(field)) = 'text'")
        guard !rows.isEmpty else { continue }
        let update = try db.makeStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE id = ?")
        for row in rows {
          guard let name = row["name"] as String?, let id = row["id"] as String? else { continue }
          try update.execute(arguments: [RecordFilter.normalizedName(name), id])
        }
      }
    }
  }
}
