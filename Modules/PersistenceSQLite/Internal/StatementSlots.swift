import GRDB
import Model

/// The prepared statements one connection's lookups and inserts run every time (a kind's
/// SELECT by key or id, its INSERT, a read's BEGIN and COMMIT), kept by what they do.
///
/// GRDB's statement cache finds a statement by its SQL text and hashes the whole text on
/// every call: for a SELECT that names all of a kind's columns that cost more than binding
/// the key and decoding the row it finds. A slot is found by the kind's position instead.
/// A read connection keeps its slots while it is open (``ReadConnections``); a write
/// transaction has its own. Used on the connection's queue only, by one transaction at a
/// time. The statements stay in GRDB's cache too; SQLite prepares one again by itself when
/// the schema changes.
final class StatementSlots: @unchecked Sendable {
  /// What a kind's statement does; each purpose has one SQL text per kind (``TableLayout``).
  enum Purpose: Int, CaseIterable {
    case byKey, liveByKey, byID, insert
  }

  private static let kindCount = EntityKind.allCases.count
  private var statements = [Statement?](repeating: nil, count: Purpose.allCases.count * kindCount)
  private var beginStatement: Statement?
  private var commitStatement: Statement?

  /// The statement of `purpose` for `kind`, whose text is `sql` (prepared the first time).
  func statement(_ purpose: Purpose, _ kind: EntityKind, sql: String, in db: Database) throws -> Statement {
    let index = purpose.rawValue * Self.kindCount + kind.ordinal
    if let statement = statements[index] { return statement }
    let statement = try db.cachedStatement(sql: sql)
    statements[index] = statement
    return statement
  }

  /// The BEGIN of this connection's transactions: one text per connection (a read
  /// connection's are all `BEGIN DEFERRED`), so the first text given stays.
  func begin(_ sql: String, in db: Database) throws -> Statement {
    if let beginStatement { return beginStatement }
    let statement = try db.cachedStatement(sql: sql)
    beginStatement = statement
    return statement
  }

  func commit(in db: Database) throws -> Statement {
    if let commitStatement { return commitStatement }
    let statement = try db.cachedStatement(sql: "COMMIT TRANSACTION")
    commitStatement = statement
    return statement
  }
}
