package import Foundation
import GRDB
import GRDBSQLite
import Model
import Persistence

extension SQLiteMergeSet {
  /// How a group's keeper takes one of its fields from its losers (the dedup step's rules,
  /// chosen per field by the `Migration` module). Losers are taken in keeper order (by id).
  package enum FoldRule: Sendable, Hashable {
    /// A flag set on any record of the group stays set.
    case any
    /// The records' counts add up.
    case sum
    /// The latest of the records' dates.
    case latest
    /// The keeper's elements, then each loser's elements the list does not hold yet.
    case union
    /// The keeper's value; when it has none, the first loser's that has one. Other losers'
    /// values are reported as dropped.
    case first
    /// A reference kept like ``first``; each loser's other target is named, as `prefix`
    /// and the target's display name, on a line of its own in the text field `notes`, and
    /// reported as kept there.
    case noteOthers(notes: String, prefix: String)
  }

  /// One merged group, as the dedup report names it.
  package struct FoldedGroup: Sendable {
    package let key: String
    package let keeper: Member
    package fileprivate(set) var losers: [Member] = []
    /// "field: value" for each loser value the keeper could not take, by loser, then field.
    package fileprivate(set) var dropped: [String] = []
  }

  /// A record of a group: its id and display name.
  package struct Member: Sendable, Hashable {
    package let id: UUID
    package let name: String
  }

  /// Folds every group's losers into its keeper by `rules` (a field without a rule, and
  /// every identity field, keeps the keeper's value): the folded values are computed for
  /// all groups at once into a temporary table, the keepers that change are updated by one
  /// statement, and each gets the change-log entry an update by record would write (the
  /// changed fields, or none when only its dates moved). The keeper's creation date becomes
  /// the group's earliest, its update date the latest.
  /// - Returns: the groups, ordered by key, with what was dropped.
  package func fold(_ rules: [String: FoldRule]) throws -> [FoldedGroup] {
    guard loserCount > 0, let keyField = layout.schema.semanticKeyField else { return [] }
    let schema = layout.schema
    let identity = Set(schema.identityFields)
    let folded = schema.fields.compactMap { field in
      identity.contains(field.name) ? nil : rules[field.name].map { (field: field, rule: $0) }
    }
    let table = layout.table.quotedDatabaseIdentifier
    let map = "temp.\(Self.mapTable)"
    try db.execute(sql: "CREATE INDEX temp.\(Self.mapTable)_keeper ON \(Self.mapTable) (keeper, loser)")
    try db.execute(sql: "DROP TABLE IF EXISTS temp.\(Self.foldTable)")
    defer { try? db.execute(sql: "DROP TABLE IF EXISTS temp.\(Self.foldTable)") }

    // The folded values of every keeper: aggregates over its losers, then per field the rule.
    var aggregates = ["m.keeper AS keeper", "MIN(l.createdAt) AS createdAt", "MAX(l.updatedAt) AS updatedAt"]
    var values = ["k.id AS id", "MIN(k.createdAt, a.createdAt) AS createdAt", "MAX(k.updatedAt, a.updatedAt) AS updatedAt"]
    for (field, rule) in folded {
      let column = field.name.quotedDatabaseIdentifier
      let mine = "k.\(column)", theirs = "l.\(column)", aggregate = "a.\(column)"
      switch rule {
      case .any:
        aggregates.append("MAX(\(theirs)) AS \(column)")
        values.append("CASE WHEN \(aggregate) = 1 THEN 1 ELSE \(mine) END AS \(column)")
      case .sum:
        aggregates.append("SUM(\(theirs)) AS \(column)")
        values.append("CASE WHEN \(aggregate) IS NULL THEN \(mine) ELSE COALESCE(\(mine), 0) + \(aggregate) END AS \(column)")
      case .latest:
        aggregates.append("MAX(\(theirs)) AS \(column)")
        values.append(
          "CASE WHEN \(aggregate) IS NULL THEN \(mine) WHEN \(mine) IS NULL THEN \(aggregate) ELSE MAX(\(mine), \(aggregate)) END AS \(column)"
        )
      case .union:
        aggregates.append("MAX(NOT \(Self.isEmpty(theirs, field.type))) AS \(column)")
        // Each element once, at its first place: the keeper's list first (rank ''), then
        // the losers' by id.
        values.append(
          """
          CASE WHEN \(aggregate) = 1 THEN (SELECT json_group_array(v) FROM (
            SELECT j.value AS v, MIN(s.r || '/' || printf('%08d', j.key)) AS o
            FROM (SELECT '' AS r, \(mine) AS c UNION ALL
              SELECT m.loser, \(theirs) FROM \(map) m JOIN \(table) l ON l.id = m.loser WHERE m.keeper = k.id) s,
            json_each(COALESCE(s.c, '[]')) j GROUP BY j.value ORDER BY o))
          ELSE \(mine) END AS \(column)
          """)
      case .first, .noteOthers:
        values.append(
          """
          CASE WHEN \(Self.isEmpty(mine, field.type)) THEN COALESCE((
            SELECT \(theirs) FROM \(map) m JOIN \(table) l ON l.id = m.loser
            WHERE m.keeper = k.id AND NOT \(Self.isEmpty(theirs, field.type)) ORDER BY m.loser LIMIT 1), \(mine))
          ELSE \(mine) END AS \(column)
          """)
      }
    }
    try db.execute(
      sql: """
        CREATE TEMP TABLE \(Self.foldTable) AS SELECT \(values.joined(separator: ", "))
        FROM (SELECT \(aggregates.joined(separator: ", ")) FROM \(map) m JOIN \(table) l ON l.id = m.loser GROUP BY m.keeper) a
        JOIN \(table) k ON k.id = a.keeper
        """)
    try db.execute(sql: "CREATE UNIQUE INDEX temp.\(Self.foldTable)_id ON \(Self.foldTable) (id)")

    var groups = try members(keyField: keyField)
    var dropped: [UUID: [(loser: String, field: Int, text: String)]] = [:]
    for (index, (field, rule)) in folded.enumerated() {
      switch rule {
      case .first:
        try droppedValues(of: field, index: index, into: &dropped)
      case .noteOthers(let notes, let prefix):
        try noteOthers(field, notes: notes, prefix: prefix, index: index, dropped: &dropped)
      default:
        continue
      }
    }
    try writeKeepers(folded.map(\.field.name), keyField: keyField)
    for index in groups.indices {
      let entries = (dropped[groups[index].keeper.id] ?? []).sorted { ($0.loser, $0.field) < ($1.loser, $1.field) }
      groups[index].dropped = entries.map(\.text)
    }
    return groups
  }

  static let foldTable = "forager_fold"

  /// SQL that is true when `column` holds nothing: null, and for text and lists also empty.
  private static func isEmpty(_ column: String, _ type: FieldType) -> String {
    switch type {
    case .text, .civilDate, .duration, .enumeration, .reference: "(NULLIF(\(column), '') IS NULL)"
    case .textList, .referenceList: "(\(column) IS NULL OR \(column) = '[]')"
    case .integer, .real, .bool, .timestamp: "(\(column) IS NULL)"
    }
  }

  /// The groups' records by key, each keeper first, then its losers by id: the keepers
  /// read through the folded table in key order, the losers by the map's keeper index.
  private func members(keyField: String) throws -> [FoldedGroup] {
    let table = layout.table.quotedDatabaseIdentifier
    let key = keyField.quotedDatabaseIdentifier, name = layout.schema.displayField.quotedDatabaseIdentifier
    var groups: [FoldedGroup] = []
    var position: [UUID: Int] = [:]
    let damaged = StoreError.backend("damaged \(layout.kind.rawValue) id in a duplicate group")
    try steps(
      db.makeStatement(
        sql: "SELECT t.id, t.\(name), t.\(key) FROM temp.\(Self.foldTable) f JOIN \(table) t ON t.id = f.id ORDER BY t.\(key)")
    ) {
      handle in
      guard let id = UUID(storageColumn: handle, 0) else { throw damaged }
      position[id] = groups.count
      groups.append(
        FoldedGroup(key: SQLiteTransaction.text(handle, 2) ?? "", keeper: Member(id: id, name: SQLiteTransaction.text(handle, 1) ?? "")))
    }
    try steps(
      db.makeStatement(
        sql: "SELECT m.keeper, m.loser, t.\(name) FROM temp.\(Self.mapTable) m JOIN \(table) t ON t.id = m.loser ORDER BY m.keeper, m.loser"
      )
    ) { handle in
      guard let keeper = UUID(storageColumn: handle, 0), let index = position[keeper], let id = UUID(storageColumn: handle, 1) else {
        throw damaged
      }
      groups[index].losers.append(Member(id: id, name: SQLiteTransaction.text(handle, 2) ?? ""))
    }
    return groups
  }

  /// The losers' values of a ``FoldRule/first`` field that the keeper did not take.
  private func droppedValues(
    of field: FieldDescriptor, index: Int, into dropped: inout [UUID: [(loser: String, field: Int, text: String)]]
  ) throws {
    let column = field.name.quotedDatabaseIdentifier
    let statement = try db.makeStatement(
      sql: """
        SELECT m.keeper, m.loser, l.\(column) FROM temp.\(Self.mapTable) m
        JOIN \(layout.table.quotedDatabaseIdentifier) l ON l.id = m.loser JOIN temp.\(Self.foldTable) f ON f.id = m.keeper
        WHERE NOT \(Self.isEmpty("l.\(column)", field.type)) AND l.\(column) IS NOT f.\(column)
        """)
    for row in try Row.fetchAll(statement) {
      guard let keeper = UUID(storageText: row[0]) else { continue }
      let value = try TableLayout.fieldValue(row[2] as DatabaseValue, field, layout.kind)
      dropped[keeper, default: []].append((row[1], index, "\(field.name): \(value.displayText)"))
    }
  }

  /// ``FoldRule/noteOthers(notes:prefix:)``: the keepers' notes gain a line per loser
  /// whose target differs from the one kept, and the report says so.
  private func noteOthers(
    _ field: FieldDescriptor, notes: String, prefix: String, index: Int,
    dropped: inout [UUID: [(loser: String, field: Int, text: String)]]
  ) throws {
    guard let target = field.type.referencedKind, let notesField = layout.schema.field(named: notes) else { return }
    let column = field.name.quotedDatabaseIdentifier, notesColumn = notesField.name.quotedDatabaseIdentifier
    let targetLayout = TableLayout.of(target)
    let title = "COALESCE(t.\(targetLayout.schema.displayField.quotedDatabaseIdentifier), l.\(column))"
    let others = """
      SELECT m.keeper AS keeper, m.loser AS loser, \(title) AS title FROM temp.\(Self.mapTable) m
      JOIN \(layout.table.quotedDatabaseIdentifier) l ON l.id = m.loser JOIN temp.\(Self.foldTable) f ON f.id = m.keeper
      LEFT JOIN \(targetLayout.table.quotedDatabaseIdentifier) t ON t.id = l.\(column)
      WHERE l.\(column) IS NOT NULL AND l.\(column) IS NOT f.\(column)
      ORDER BY m.keeper, m.loser
      """
    for row in try Row.fetchAll(db, sql: others) {
      guard let keeper = UUID(storageText: row[0]) else { continue }
      dropped[keeper, default: []].append((row[1], index, "\(field.name): \(row[2] as String) (kept in notes)"))
    }
    try db.execute(
      sql: """
        UPDATE temp.\(Self.foldTable) AS f SET \(notesColumn) =
          CASE WHEN NULLIF(f.\(notesColumn), '') IS NULL THEN x.lines ELSE f.\(notesColumn) || char(10) || x.lines END
        FROM (SELECT keeper, group_concat(? || title, char(10)) AS lines FROM (\(others)) GROUP BY keeper) x
        WHERE f.id = x.keeper
        """, arguments: [prefix])
  }

  /// Writes the keepers whose folded values differ from their rows, after their
  /// change-log entries (in key order, as an update by record would have appended them).
  private func writeKeepers(_ fields: [String], keyField: String) throws {
    let table = layout.table.quotedDatabaseIdentifier, fold = "temp.\(Self.foldTable)"
    let differs = { (column: String) in "k.\(column) IS NOT f.\(column)" }
    let names = fields.sorted()
    let columns = names.map(\.quotedDatabaseIdentifier)
    let changed = (["createdAt", "updatedAt"] + columns).map(differs).joined(separator: " OR ")
    // The names of the changed fields as a JSON array: field names need no escaping.
    let changedNames =
      columns.isEmpty
      ? "'[]'"
      : "'[' || rtrim("
        + zip(names, columns).map { name, column in "CASE WHEN \(differs(column)) THEN '\"\(name)\",' ELSE '' END" }
        .joined(separator: " || ") + ", ',') || ']'"
    if writer.origin.isLogged {
      try db.execute(
        sql: """
          INSERT INTO forager_changes (kind, id, operation, fields, origin, timestamp)
          SELECT ?, k.id, ?, \(changedNames), ?, ? FROM \(fold) f JOIN \(table) k ON k.id = f.id
          WHERE \(changed) ORDER BY k.\(keyField.quotedDatabaseIdentifier), k.id
          """,
        arguments: [
          layout.kind.rawValue, ChangeOperation.update.rawValue, writer.origin.rawValue, writer.now.timeIntervalSinceReferenceDate,
        ])
    }
    let sets = (["createdAt", "updatedAt"] + columns).map { "\($0) = f.\($0)" }.joined(separator: ", ")
    try db.execute(
      sql: """
        UPDATE \(table) AS k SET \(sets) FROM \(fold) f WHERE k.id = f.id AND (\(changed))
        """)
  }

  /// Steps a statement to its end, handing each row to `row`.
  private func steps(_ statement: Statement, _ row: (SQLiteStatement) throws -> Void) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    defer { sqlite3_reset(handle) }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw SQLiteTransaction.failure(code, statement, in: db) }
      try row(handle)
    }
  }
}
