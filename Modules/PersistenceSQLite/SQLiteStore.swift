public import Foundation
import GRDB
import GRDBSQLite
import Model
public import Persistence

/// A store in one SQLite file (WAL mode), through GRDB on the system libsqlite3.
///
/// Each kind has its own table, generated from its `EntitySchema`: one column per field,
/// an index on the semantic key, a unique index over live rows for unique kinds, and an
/// index on every reference column. The schema version is recorded in the file
/// (`PRAGMA user_version`). Several processes may open the same file; writers wait for
/// each other up to the busy timeout given to ``init(path:busyTimeout:clock:)``.
///
/// ```swift
/// let store = try SQLiteStore(path: "/tmp/kitchen.sqlite")
/// ```
public final class SQLiteStore: Store {
  /// The schema version this build writes: v6, semantic keys with unique constraints,
  /// weekly lists keyed by week and name, stores, pantry amounts, planned servings and
  /// ingredient groups. A v3 file is upgraded when it is opened (`WeekIdentityUpgrade`), a
  /// v4 or v5 file gains the tables and columns added since (no row is rewritten); older
  /// files are refused until `migrate` upgrades them.
  public static let schemaVersion = 6

  /// WAL pages after which a commit checkpoints (``init(path:busyTimeout:clock:)`` says why).
  package static let checkpointPages = 10_000
  /// The writer's page cache, in KiB (SQLite's default is 2,000 KiB).
  package static let writerCacheKiB = 32_768

  /// "sqlite:" followed by the file's path.
  public let location: String
  /// The database file's path.
  public let path: String
  /// The clock that dates the change-log entries of each transaction.
  public let clock: StoreClock
  /// The writer (and the schema set-up) goes through GRDB's pool; reads use
  /// ``ReadConnections``, which reach a read connection for a fraction of the pool's cost.
  private let pool: DatabasePool
  private let readers: ReadConnections
  /// Checkpoints the WAL past ``checkpointPages``, beside the writer.
  private let checkpointer: BackgroundCheckpointer
  /// The subscribers of ``subscribe(to:onCommit:)``, told after each commit of the writer.
  private let commits: CommitBroadcaster
  /// Notices other connections' commits while there are subscribers.
  private let poller: ForeignCommitPoller

  /// How often the store looks for commits of other connections and processes while it
  /// has subscribers (`ForeignCommitPoller`).
  public static let foreignCommitInterval: TimeInterval = 0.01

  /// Opens the store at `path`, creating the file and its schema when missing.
  /// - Throws: `StoreError/unavailable(location:reason:)` when the file cannot be
  ///   opened, is not a Forager store, or has a schema version this build cannot use.
  /// - Parameter path: the database file's path.
  /// - Parameter busyTimeout: how long, in seconds, a write waits for another process's
  ///   write to finish before it fails.
  /// - Parameter clock: dates change-log entries; the system clock by default.
  public convenience init(path: String, busyTimeout: TimeInterval = 10, clock: @escaping StoreClock = { Date() }) throws {
    try self.init(path: path, busyTimeout: busyTimeout, clock: clock, checkpointPages: Self.checkpointPages)
  }

  /// ``init(path:busyTimeout:clock:)`` with the WAL pages past which a checkpoint starts
  /// (tests use a few) and the interval of the poll for other connections' commits.
  package init(
    path: String, busyTimeout: TimeInterval = 10, clock: @escaping StoreClock = { Date() }, checkpointPages: Int,
    foreignCommitInterval: TimeInterval = SQLiteStore.foreignCommitInterval
  ) throws {
    self.path = path
    self.clock = clock
    self.location = "sqlite:\(path)"
    var configuration = GRDB.Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "forager"
    do {
      // A mistyped path is an error, not a new directory tree somewhere.
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      var isDirectory: ObjCBool = false
      if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
        throw StoreError.unavailable(
          location: "sqlite:\(path)", reason: "the directory \(directory) does not exist (create it first: mkdir -p '\(directory)')")
      }
      let pool = try DatabasePool(path: path, configuration: configuration)
      self.pool = pool
      let commits = CommitBroadcaster.withPoller(interval: foreignCommitInterval) {
        // `PRAGMA data_version` on the writer changes only for other connections' commits.
        try? pool.writeWithoutTransaction { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) }
      }
      self.commits = commits.broadcaster
      poller = commits.poller
      readers = ReadConnections(path: path, configuration: configuration)
      checkpointer = BackgroundCheckpointer(path: path, configuration: configuration, pages: checkpointPages)
      try pool.barrierWriteWithoutTransaction { db in
        // Durability, page cache and statement journals: ``WriterSettings`` says why.
        try WriterSettings.apply { try db.execute(sql: $0) }
        // A checkpoint copies the WAL into the file and syncs both (two fsyncs, ≈ 10 ms on
        // this project's disks). SQLite's default runs one whenever the WAL passes 1,000
        // pages, every ≈ 100 small commits: a script of 10k one-line commands paid more for
        // checkpoints than for its commits. At 10,000 pages (≈ 40 MiB of WAL at most) a
        // checkpoint copies more pages at once and comes ten times less often. After a large
        // commit it runs on a connection of its own beside the writer, after a small one
        // inside the commit (``BackgroundCheckpointer`` says why); `close()` still empties
        // the WAL. Docs/PERFORMANCE.md, "Hand-written code and its measured reasons".
        checkpointer.install(on: db)
        try SchemaBuilder.prepare(db, location: "sqlite:\(path)", now: clock)
        try ElementIndex.prepare(db)
        try TextSearchIndex.prepare(db)
        try db.inTransaction(.immediate) {
          try LookupColumns.backfill(db)
          return .commit
        }
        try LiveCounts.prepare(db)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError.unavailable(location: "sqlite:\(path)", reason: Self.describe(error))
    }
  }

  /// An integer setting of the writer connection (`PRAGMA name`), for tests of its configuration.
  package func writerSetting(_ name: String) throws -> Int {
    try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA \(name)") ?? 0 }
  }

  /// Waits until no checkpoint runs beside the writer (for tests).
  package func waitForCheckpoint() { checkpointer.waitWhileRunning() }

  /// Copies the write-ahead log into the file and empties it, then closes every
  /// connection. (SQLite checkpoints on the last close only when that connection can
  /// write; the pool's readers are read-only, so the checkpoint is explicit.)
  public func close() throws {
    do {
      poller.close()
      try checkpointer.close()
      _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
      try pool.close()
    } catch {
      throw StoreError.unavailable(location: location, reason: "cannot close: \(Self.describe(error))")
    }
  }

  /// Runs `body` in a deferred read transaction on a read connection, which sees one committed state.
  public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
    do {
      return try readers.read { db, statements in
        try Self.transaction(db, begin: "BEGIN DEFERRED TRANSACTION", statements) {
          try body(
            SQLiteTransaction(db: db, origin: .local, now: clock(), keepsLastRead: true, keepsLiveCounts: true, statements: statements))
        }
      }
    } catch let error as DatabaseError {
      throw StoreError.backend(Self.describe(error))
    }
  }

  /// Runs `body` in an immediate write transaction; it commits when `body` returns and rolls back when it throws.
  public func write<T>(origin: ChangeOrigin, _ body: (any StoreWriter) throws -> T) throws -> T {
    do {
      var touched = StoreRegion()
      let result = try pool.writeWithoutTransaction { db in
        let statements = StatementSlots()
        return try Self.transaction(db, begin: "BEGIN IMMEDIATE TRANSACTION", statements) {
          let transaction = SQLiteTransaction(
            db: db, origin: origin, now: clock(), keepsLastRead: true, keepsLiveCounts: true, statements: statements)
          let result = try body(transaction)
          try transaction.writeLiveCounts()  // the transaction's live-record changes, once
          touched = transaction.touched
          return result
        }
      }
      // After the commit and outside the writer: subscribers read the store again.
      commits.notify(touched)
      return result
    } catch let error as DatabaseError {
      throw StoreError.backend(Self.describe(error))
    }
  }

  /// Calls `onCommit` after each committed transaction that wrote a kind of `region`, and
  /// after another connection's commit, until the subscription is cancelled.
  public func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription {
    commits.subscribe(to: region, onCommit: onCommit)
  }

  /// One transaction with cached BEGIN/COMMIT statements: GRDB's own `read`/`write`
  /// compile them (and a savepoint) anew on every call, which cost more than a whole
  /// indexed lookup (about 12 µs of the 18 µs an empty read took). A read connection keeps
  /// them in its slots. Rolls back when `body` throws or the commit fails.
  private static func transaction<T>(_ db: Database, begin: String, _ statements: StatementSlots, _ body: () throws -> T) throws -> T {
    try step(statements.begin(begin, in: db), in: db)
    do {
      let result = try body()
      try step(statements.commit(in: db), in: db)
      return result
    } catch {
      if db.isInsideTransaction { try? step(db.cachedStatement(sql: "ROLLBACK TRANSACTION"), in: db) }
      throw error
    }
  }

  /// Runs a statement without parameters on the SQLite statement itself. GRDB's
  /// `execute()` first checks arguments and prepares its observation bookkeeping, which no
  /// store connection uses: that cost as much as a key lookup's own SQL on every
  /// transaction's BEGIN and COMMIT.
  private static func step(_ statement: Statement, in db: Database) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    let code = sqlite3_step(handle)
    let error = code == SQLITE_DONE ? nil : SQLiteTransaction.failure(code, statement, in: db)
    sqlite3_reset(handle)
    if let error { throw error }
  }

  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
    return "\(error)"
  }
}

/// The backend entry for `StoreFactory`: location `sqlite:PATH` (or a bare path).
public struct SQLiteBackend: StoreBackend {
  /// The SQLite backend entry.
  public init() {}
  /// "sqlite".
  public var scheme: String { "sqlite" }
  /// A one-line description for a list of backends.
  public var summary: String { "sqlite:PATH — a SQLite file (WAL), created when missing" }
  /// Opens (or creates) the SQLite store at `path`; an empty path is refused.
  public func open(path: String, clock: @escaping StoreClock) throws -> any Store {
    guard !path.isEmpty else { throw StoreError.unavailable(location: "sqlite:", reason: "no file path given") }
    return try SQLiteStore(path: path, clock: clock)
  }
}
