import Foundation
import GRDB
import Model
import Persistence

/// Substring indexes (FTS5 with the trigram tokenizer) of the fields people search for
/// text anywhere in them (``Model/FieldDescriptor/isSearched``: a recipe's name, key,
/// ingredient lines and keywords), so `RecordFilter.contains` — `recipe search` — reads
/// the rows whose text holds the needle's three-letter pieces instead of every row.
///
/// The index is only a sieve: a query keeps its exact condition (`instr(lower(…))`, the
/// list elements one by one) and asks the index for the rows that may match. The
/// tokenizer folds case more widely than SQLite's `lower()` (beyond ASCII too), so its
/// answer holds every row the exact condition accepts. A list field is indexed as its
/// elements, one a line.
///
/// One table per kind, `<table>_search`, its rowid the row's; SQLite keeps it current with
/// triggers on the kind's table (every writer maintains it), and a file without it gets
/// it, filled from its rows, the next time a store opens it.
enum TextSearchIndex {
  struct Entry {
    let kind: EntityKind
    let fields: [FieldDescriptor]
    var table: String { kind.rawValue }
    var searchTable: String { "\(table)_search" }
  }

  static let entries: [Entry] = EntityKind.allCases.compactMap { kind in
    let fields = kind.schema.fields.filter(\.isSearched)
    return fields.isEmpty ? nil : Entry(kind: kind, fields: fields)
  }

  /// The search table of a kind's field, when it is one that is indexed.
  static func searchTable(_ kind: EntityKind, _ field: String) -> String? {
    entries.first { $0.kind == kind && $0.fields.contains { $0.name == field } }?.searchTable
  }

  /// Whether the index can sieve for `needle`: trigrams need three characters.
  static func canSieve(_ needle: String) -> Bool {
    needle.unicodeScalars.count >= 3
  }

  /// The FTS5 query for rows holding any of the needles: each a quoted phrase (its
  /// quotes doubled), joined by OR.
  static func matchExpression(_ needles: [String]) -> String {
    needles.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
  }

  /// What the search table holds for a field of the row `row` (`NEW`, `OLD`, or a table
  /// alias): the text, or a list's elements one a line.
  private static func indexedText(_ field: FieldDescriptor, of row: String) -> String {
    let column = "\(row).\(field.name.quotedDatabaseIdentifier)"
    if case .textList = field.type {
      return "(SELECT group_concat(value, char(10)) FROM json_each(\(column)))"
    }
    return column
  }

  /// Creates missing search tables (filled from the existing rows) and their triggers.
  static func prepare(_ db: Database) throws {
    try db.inTransaction {
      for entry in entries {
        guard try !db.tableExists(entry.searchTable) else { continue }
        let search = entry.searchTable.quotedDatabaseIdentifier
        let table = entry.table.quotedDatabaseIdentifier
        let columns = entry.fields.map { $0.name.quotedDatabaseIdentifier }.joined(separator: ", ")
        func values(_ row: String) -> String { entry.fields.map { indexedText($0, of: row) }.joined(separator: ", ") }
        let triggers = ["insert", "update", "delete"].map { "\(entry.searchTable)_\($0)".quotedDatabaseIdentifier }
        try db.execute(
          sql: """
            \(triggers.map { "DROP TRIGGER IF EXISTS \($0);" }.joined(separator: "\n"))
            CREATE VIRTUAL TABLE \(search) USING fts5(\(columns), tokenize = 'trigram');
            INSERT INTO \(search) (rowid, \(columns)) SELECT row.rowid, \(values("row")) FROM \(table) AS row;
            CREATE TRIGGER \(triggers[0]) AFTER INSERT ON \(table)
            BEGIN
              INSERT INTO \(search) (rowid, \(columns)) VALUES (NEW.rowid, \(values("NEW")));
            END;
            CREATE TRIGGER \(triggers[1]) AFTER UPDATE OF \(columns) ON \(table)
            BEGIN
              DELETE FROM \(search) WHERE rowid = OLD.rowid;
              INSERT INTO \(search) (rowid, \(columns)) VALUES (NEW.rowid, \(values("NEW")));
            END;
            CREATE TRIGGER \(triggers[2]) AFTER DELETE ON \(table)
            BEGIN
              DELETE FROM \(search) WHERE rowid = OLD.rowid;
            END;
            """)
      }
      return .commit
    }
  }
}
