import GRDB
import Model
import Persistence

/// A query's WHERE clause and its arguments.
struct SQLQuery {
  var whereClause: String
  var arguments: [DatabaseValue] = []

  /// Side tables indexing list elements or searched text that exist in the file.
  let indexedTables: Set<String>

  init(_ query: RecordQuery, indexedTables: Set<String>) {
    self.indexedTables = indexedTables
    var clauses = query.includeDeleted ? [] : ["deletedAt IS NULL"]
    var arguments: [DatabaseValue] = []
    let schema = query.kind.schema
    for filter in query.filters {
      clauses.append(Self.clause(filter, schema, indexedTables, &arguments))
    }
    whereClause = clauses.isEmpty ? "1" : clauses.joined(separator: " AND ")
    self.arguments = arguments
  }

  private static func clause(
    _ filter: RecordFilter, _ schema: EntitySchema, _ indexedTables: Set<String>, _ arguments: inout [DatabaseValue]
  ) -> String {
    switch filter {
    case .equals(let field, let value):
      let column = field.quotedDatabaseIdentifier
      if value.isNull { return "\(column) IS NULL" }
      arguments.append(TableLayout.databaseValue(value))
      return "\(column) = ?"
    case .contains(let field, let needle):
      if let search = sieve([filter], schema, indexedTables) {
        arguments.append(TextSearchIndex.matchExpression([needle]).databaseValue)
        return "(rowid IN (SELECT rowid FROM \(search.quotedDatabaseIdentifier) WHERE \(search.quotedDatabaseIdentifier) MATCH ?) AND "
          + containsClause(field, needle, schema, &arguments) + ")"
      }
      return containsClause(field, needle, schema, &arguments)
    case .references(let field, let id):
      let column = field.quotedDatabaseIdentifier
      switch schema.field(named: field)?.type {
      case .reference:
        arguments.append(id.storageText.databaseValue)
        return "\(column) = ?"
      case .referenceList:
        arguments.append(id.storageText.databaseValue)
        return "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE json_each.value = ?)"
      default:
        return "0"
      }
    case .hasElement(let field, let element):
      let column = field.quotedDatabaseIdentifier
      arguments.append(element.databaseValue)
      guard case .textList = schema.field(named: field)?.type else { return "0" }
      if let side = ElementIndex.sideTable(schema.kind, field), indexedTables.contains(side) {
        return "id IN (SELECT id FROM \(side.quotedDatabaseIdentifier) WHERE value = ?)"
      }
      return "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE json_each.value = ?)"
    case .hasPrefix(let field, let prefix):
      guard case .text = schema.field(named: field)?.type else { return "0" }
      // LIKE folds ASCII case like the filter, and with a pattern that starts with
      // literal text it is a range scan of an index that ignores ASCII case (SchemaBuilder
      // makes one for every indexed text field).
      arguments.append(LikePattern.prefix(prefix).databaseValue)
      return "\(field.quotedDatabaseIdentifier) LIKE ? ESCAPE '\(LikePattern.escape)'"
    case .hasNormalizedName(let field, let key):
      // The field's lookup column (the query was validated: the schema marks it).
      arguments.append(key.databaseValue)
      return "\(LookupColumns.column(for: field).quotedDatabaseIdentifier) = ?"
    case .anyOf(let filters):
      guard !filters.isEmpty else { return "0" }
      if let search = sieve(filters, schema, indexedTables) {
        // One sieve for every needle, then the exact conditions.
        let needles = filters.compactMap { filter -> String? in
          if case .contains(_, let needle) = filter { return needle }
          return nil
        }
        arguments.append(TextSearchIndex.matchExpression(needles).databaseValue)
        var exact: [String] = []
        for case .contains(let field, let needle) in filters { exact.append(containsClause(field, needle, schema, &arguments)) }
        return "(rowid IN (SELECT rowid FROM \(search.quotedDatabaseIdentifier) WHERE \(search.quotedDatabaseIdentifier) MATCH ?) AND ("
          + exact.joined(separator: " OR ") + "))"
      }
      return "(" + filters.map { clause($0, schema, indexedTables, &arguments) }.joined(separator: " OR ") + ")"
    }
  }

  /// The exact condition of `.contains`: the text, or an element of the list, holds the
  /// needle, ASCII case folded.
  private static func containsClause(_ field: String, _ needle: String, _ schema: EntitySchema, _ arguments: inout [DatabaseValue])
    -> String
  {
    let column = field.quotedDatabaseIdentifier
    switch schema.field(named: field)?.type {
    case .text, .civilDate, .duration, .enumeration:
      arguments.append(needle.databaseValue)
      return "instr(lower(\(column)), lower(?)) > 0"
    case .textList:
      arguments.append(needle.databaseValue)
      return "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE instr(lower(json_each.value), lower(?)) > 0)"
    default:
      return "0"
    }
  }

  /// The search table that can sieve rows for every one of `filters` (each a `.contains`
  /// of a needle long enough, on a field of one search table present in the file), or nil.
  private static func sieve(_ filters: [RecordFilter], _ schema: EntitySchema, _ indexedTables: Set<String>) -> String? {
    var table: String?
    for filter in filters {
      guard case .contains(let field, let needle) = filter, TextSearchIndex.canSieve(needle),
        let search = TextSearchIndex.searchTable(schema.kind, field), indexedTables.contains(search), table == nil || table == search
      else { return nil }
      table = search
    }
    return table
  }
}

extension RecordFilter {
  /// Whether the filter may use a side table: list elements, or text search.
  var usesSideTable: Bool {
    switch self {
    case .hasElement, .contains: true
    case .anyOf(let filters): filters.contains { $0.usesSideTable }
    default: false
    }
  }
}
