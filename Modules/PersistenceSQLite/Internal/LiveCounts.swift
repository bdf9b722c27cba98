import GRDB
import GRDBSQLite
import Model
import Persistence

/// A counter of live records per kind (`forager_live_counts`), so `counts` reads one row
/// per kind instead of counting every live row of every kind, which grows with the store
/// (≈ 70 ns a row: 6.8 ms on a kitchen of 100k records).
///
/// The store's own write path keeps it: a transaction adds up how its writes change each
/// kind's live records (inserting a live record +1, tombstoning −1, reviving +1) and
/// writes the sums once, just before it commits. A bulk insert of 100k records costs one
/// UPDATE, and a transaction that rolls back never wrote any. Writers that do not go
/// through ``SQLiteStore`` (the migration's) do not count: the migration drops the table
/// (``drop(_:)``), and a store that opens a file without it (older, or just migrated)
/// counts each kind's rows once and creates it (``prepare(_:)``).
enum LiveCounts {
  static let table = "forager_live_counts"

  /// Creates the table when missing, and a row for every kind that has none, counted from
  /// the kind's rows (one statement each, in one immediate transaction, so a writer in
  /// another process cannot slip a record between a count and its row).
  static func prepare(_ db: Database) throws {
    try db.inTransaction(.immediate) {
      try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(table) (kind TEXT PRIMARY KEY NOT NULL, live INTEGER NOT NULL) WITHOUT ROWID")
      let present = Set(try String.fetchAll(db, sql: "SELECT kind FROM \(table)"))
      for kind in EntityKind.allCases where !present.contains(kind.rawValue) {
        try db.execute(
          sql:
            "INSERT INTO \(table) (kind, live) SELECT ?, COUNT(*) FROM \(kind.rawValue.quotedDatabaseIdentifier) WHERE deletedAt IS NULL",
          arguments: [kind.rawValue]
        )
      }
      return .commit
    }
  }

  /// Removes the counter, inside the caller's transaction: for writers that change live
  /// records without counting them. The next store to open the file rebuilds it.
  static func drop(_ db: Database) throws {
    try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
  }
}

/// How a transaction's writes so far changed each kind's live records, not yet written
/// to ``LiveCounts``.
struct LiveCountDeltas {
  private var deltas = [Int](repeating: 0, count: EntityKind.allCases.count)
  private(set) var isEmpty = true

  mutating func add(_ delta: Int, to kind: EntityKind) {
    guard delta != 0 else { return }
    deltas[kind.ordinal] += delta
    isEmpty = false
  }

  subscript(kind: EntityKind) -> Int { deltas[kind.ordinal] }

  /// The kinds whose count changed, with the change.
  var changes: [(kind: EntityKind, delta: Int)] {
    EntityKind.allCases.compactMap { deltas[$0.ordinal] == 0 ? nil : ($0, deltas[$0.ordinal]) }
  }
}

extension SQLiteTransaction {
  /// The counter's value plus what this transaction changed; a transaction that does not
  /// keep the counter (the migration's), or a kind without a row, counts the rows.
  func liveRecordCount(_ kind: EntityKind) throws -> Int {
    guard keepsLiveCounts else { return try count(RecordQuery(kind)) }
    let stored = try textRows("SELECT live FROM \(LiveCounts.table) WHERE kind = ?", binding: [Array(kind.rawValue.utf8)]) {
      Int(sqlite3_column_int64($0, 0))
    }
    guard let stored = stored.first else { return try count(RecordQuery(kind)) }
    return stored + liveCountDeltas[kind]
  }

  /// Notes that a write changed `kind`'s live records by `delta`.
  func noteLiveChange(_ kind: EntityKind, _ delta: Int) {
    guard keepsLiveCounts else { return }
    liveCountDeltas.add(delta, to: kind)
  }

  /// Writes the changes noted so far into the counter: once per write transaction, just
  /// before its commit.
  func writeLiveCounts() throws {
    guard keepsLiveCounts, !liveCountDeltas.isEmpty else { return }
    let statement = try db.cachedStatement(sql: "UPDATE \(LiveCounts.table) SET live = live + ? WHERE kind = ?")
    for change in liveCountDeltas.changes {
      try run(statement, [Int64(change.delta).databaseValue, change.kind.rawValue.databaseValue])
    }
    liveCountDeltas = LiveCountDeltas()
  }
}
