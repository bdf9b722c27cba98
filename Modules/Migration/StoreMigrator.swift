public import Foundation
import GRDB
import Model
package import Persistence
import PersistenceSQLite

/// What a migration should do.
public struct MigrationOptions: Sendable, Hashable {
  /// The schema version to reach: 2 (keys, no constraints), 3 (constraints), 4 (weekly
  /// lists keyed by week and name), 5 (stores, pantry amounts, planned servings) or 6
  /// (current: ingredient groups). Nil: current.
  public var target: Int?
  /// The zone planned-meal instants are read in (stage A): the zone of the device that
  /// planned the meals. Default: this device's current zone.
  public var timeZone: TimeZone
  /// Whether to copy the file before the first change (on by default; tests may turn it off).
  public var makeBackup: Bool
  /// Whether to give records of unique kinds with a blank name a placeholder name, so
  /// that stage B does not refuse them.
  public var nameUnnamed: Bool

  public init(target: Int? = nil, timeZone: TimeZone = .current, makeBackup: Bool = true, nameUnnamed: Bool = false) {
    self.target = target
    self.timeZone = timeZone
    self.makeBackup = makeBackup
    self.nameUnnamed = nameUnnamed
  }
}

/// Upgrades a SQLite store file to the current schema in the stages of Docs/DESIGN.md §3:
/// stage A (v1 → v2: today's tables and fields, keys populated, no constraints), the
/// dedup step (merge records sharing a key into the smallest id), stage B (v2 → v3: the
/// unique constraints), stage C (v3 → v4: weekly lists keyed by ISO week and name, those
/// sharing a key merged — the step a store also runs when it opens a v3 file), stage D
/// (v4 → v5: the stores' table and the new columns, no row rewritten), stage E (v5 → v6:
/// the recipe lines' `group` and the list items' `planAmount` columns, no row rewritten).
///
/// Each stage is one SQLite transaction that also sets `PRAGMA user_version`, so a crash
/// leaves the file at the version before or after the stage, never between. Running a
/// migration again changes nothing. A copy of the file is made before the first change.
/// The guide is `Docs/MIGRATIONS.md`.
///
/// ```swift
/// let migrator = StoreMigrator(path: "/tmp/kitchen.sqlite")
/// print(try migrator.version())             // schema v1 (the earlier app's layout); run `migrate` …
/// print(try migrator.dryRun().lines)         // what would change; the file is not touched
/// let report = try migrator.migrate()        // backup, stage A, dedup, stage B
/// let store = try SQLiteStore(path: "/tmp/kitchen.sqlite")
/// ```
public struct StoreMigrator: Sendable {
  /// The schema version this build reads and writes.
  public static let currentVersion = SQLiteStore.schemaVersion
  /// The oldest version a store opens, upgrading it to the current one on the way (stage
  /// C, v3 → v4); older files must be migrated first.
  public static let oldestOpened = 3

  /// The steps a migration runs, each one transaction.
  package enum Step: String, Sendable, Hashable {
    case stageA = "stage A (v1 → v2)"
    case dedup = "dedup"
    case stageB = "stage B (v2 → v3)"
    case stageC = "stage C (v3 → v4)"
    case stageD = "stage D (v4 → v5)"
    case stageE = "stage E (v5 → v6)"
  }

  public let path: String
  let clock: @Sendable () -> Date
  /// For crash-safety tests: the step that fails after writing everything, just before
  /// its transaction would commit.
  package var failBeforeCommitting: Step?
  /// For benchmarks and tests: stop after stage A, leaving a v1 file at v2 with all its
  /// duplicates (as a device still on v2 would have it), so that the dedup step can then
  /// run — and be timed — on its own: ``migrate(_:)`` with target 2 on that file runs only it.
  package var stopsAfterStageA = false

  /// - Parameter clock: the time recorded on migrated records that have no date of their
  ///   own, on tombstones and in the change log.
  public init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.path = path
    self.clock = clock
  }

  // MARK: Inspecting

  /// The schema version of the file.
  /// - Throws: when the file exists but cannot be read as SQLite.
  public func version() throws -> StoreVersion {
    guard FileManager.default.fileExists(atPath: path) else { return .empty }
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      if version == 0 { return tables.isEmpty ? .empty : .foreign }
      if version == LegacySchema.version && !tables.contains("Recipe") && !tables.isEmpty { return .foreign }
      return .forager(version)
    }
  }

  /// The sync replica id the file's store recorded (`sync.replica`), when it has synced:
  /// how the household's device registry names this store.
  public func replicaID() throws -> String? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
      guard try db.tableExists("forager_metadata") else { return nil }
      return try String.fetchOne(db, sql: "SELECT value FROM forager_metadata WHERE key = 'sync.replica'")
    }
  }

  // MARK: Migrating

  /// Migrates the file to `options.target` (default: the current version).
  ///
  /// Makes a backup copy first (``MigrationReport/backupPath``), then runs the stages the
  /// file needs. A store already at v2 is deduplicated again (a device on v2 may have
  /// created duplicates since). A store at the target is left untouched.
  /// - Throws: ``MigrationError``; ``MigrationError/stageBRefused(path:refusal:backupPath:)``
  ///   leaves the store at v2 with its duplicates merged.
  public func migrate(_ options: MigrationOptions = MigrationOptions()) throws -> MigrationReport {
    let report = try run(options)
    if let refusal = report.refusal {
      throw MigrationError.stageBRefused(path: path, refusal: refusal, backupPath: report.backupPath)
    }
    return report
  }

  /// Reports what ``migrate(_:)`` would do, without changing the file: the migration runs
  /// on a temporary copy, which is then removed. A refusal of stage B is reported in
  /// ``MigrationReport/refusal`` instead of thrown.
  public func dryRun(_ options: MigrationOptions = MigrationOptions()) throws -> MigrationReport {
    _ = try foragerVersion()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forager-migrate-\(UUID().uuidString.lowercased())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let copy = directory.appendingPathComponent("store.sqlite").path
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
      try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
    }
    var migrator = StoreMigrator(path: copy, clock: clock)
    migrator.failBeforeCommitting = failBeforeCommitting
    var options = options
    options.makeBackup = false
    var report = try migrator.run(options)
    report.path = path
    report.isDryRun = true
    return report
  }

  /// The stages, with a refusal of stage B returned in the report.
  private func run(_ options: MigrationOptions) throws -> MigrationReport {
    let start = try foragerVersion()
    let target = options.target ?? Self.currentVersion
    guard (2...Self.currentVersion).contains(target), target >= start else {
      throw MigrationError.badTarget(requested: target, from: start)
    }
    var report = MigrationReport(
      path: path, fromVersion: start, toVersion: start, isDryRun: false, backupPath: nil,
      timeZone: options.timeZone.identifier, stageA: nil, dedup: nil, addedConstraints: false, named: [], refusal: nil
    )
    guard start < Self.currentVersion else { return report }
    if options.makeBackup { report.backupPath = try backup(version: start) }

    let queue = try openQueue()
    defer { try? queue.close() }
    if start == 1 {
      report.stageA = try step(.stageA, queue, version: 1) { db, writer, now in
        var stage = StageA(db: db, writer: writer, zone: options.timeZone, now: now)
        try stage.run()
        return stage.report
      }
      report.toVersion = 2
    }
    if stopsAfterStageA {
      try queue.inDatabase { db in _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = WAL") }
      return report
    }
    if start <= 2 {
      report.dedup = try step(.dedup, queue, version: 2) { db, _, now in
        // A v2 file may predate the lists' key: add it, so lists merge like every unique kind.
        try SQLiteSchemaSupport.keyWeeklyLists(db, now: now)
        return try Deduplicator(db: db, now: now).run()
      }
    }
    if start <= 2 && target >= 3 {
      let outcome = try step(.stageB, queue, version: 2) { db, writer, _ -> (named: [RecordRef], refusal: StageBRefusal?) in
        let named = options.nameUnnamed ? try StageB.nameUnnamed(writer) : []
        return (named, try StageB.run(db, writer))
      }
      report.named = outcome.named
      if let refusal = outcome.refusal {
        report.refusal = refusal
      } else {
        report.addedConstraints = true
        report.toVersion = 3
      }
    }
    if target >= 4 && report.toVersion == 3 {
      let merges = try step(.stageC, queue, version: 3) { db, _, now in
        let groups = try SQLiteSchemaSupport.upgradeWeekIdentity(db, now: now)
        try SQLiteSchemaSupport.createTables(db, uniqueConstraints: true)
        try db.execute(sql: "PRAGMA user_version = 4")
        return groups.map {
          DedupReport.Merge(
            kind: .weeklyList, key: $0.key, keeper: RecordRef(.weeklyList, $0.keeper),
            losers: $0.losers.map { RecordRef(.weeklyList, $0) }, dropped: $0.dropped)
        }
      }
      if !merges.isEmpty || report.dedup == nil {
        var dedup = report.dedup ?? DedupReport()
        dedup.merges += merges
        report.dedup = dedup
      }
      report.keyedWeeklyLists = true
      report.toVersion = 4
    }
    if target >= 5 && report.toVersion == 4 {
      // Stores, a list's store, pantry amounts, planned servings: a table and columns
      // added, no row rewritten (the step a store also runs when it opens a v4 file).
      try step(.stageD, queue, version: 4) { db, _, _ in
        try SQLiteSchemaSupport.createTables(db, uniqueConstraints: true)
        try db.execute(sql: "PRAGMA user_version = 5")
      }
      report.addedStores = true
      report.toVersion = 5
    }
    if target >= 6 && report.toVersion == 5 {
      // Ingredient groups and plan amounts: a column each on recipe lines and list items,
      // no row rewritten (the step a store also runs when it opens a v5 file).
      try step(.stageE, queue, version: 5) { db, _, _ in
        try SQLiteSchemaSupport.createTables(db, uniqueConstraints: true)
        try db.execute(sql: "PRAGMA user_version = 6")
      }
      report.addedIngredientGroups = true
      report.toVersion = 6
    }
    try queue.inDatabase { db in _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = WAL") }
    return report
  }

  /// What would stop stage B on a store at v2 right now (nil: nothing), without changing it.
  /// - Throws: ``MigrationError`` when the file is not a Forager store at v2 or v3.
  public func stageBRefusal() throws -> StageBRefusal? {
    let version = try foragerVersion()
    guard version >= 2 else { throw MigrationError.badTarget(requested: 3, from: version) }
    let queue = try openQueue()
    defer { try? queue.close() }
    return try queue.read { db in try StageB.refusal(SQLiteSchemaSupport.writer(db, origin: .migration, now: clock())) }
  }

  /// For tests that play a device still on v2: writes to a v2 file in one transaction.
  package static func withVersionTwoWriter(path: String, _ body: (any StoreWriter) throws -> Void) throws {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    try queue.write { db in
      guard try Int.fetchOne(db, sql: "PRAGMA user_version") == 2 else { throw MigrationError.badTarget(requested: 2, from: 0) }
      try body(SQLiteSchemaSupport.writer(db, origin: .local, now: Date()))
    }
  }

  /// For tests: ``stageBRefusal()`` of the file at `path`.
  package static func stageBRefusal(path: String) throws -> StageBRefusal? { try StoreMigrator(path: path).stageBRefusal() }

  // MARK: Internals

  /// The file's Forager schema version, or a ``MigrationError`` for anything else.
  func foragerVersion() throws -> Int {
    switch try version() {
    case .empty:
      guard FileManager.default.fileExists(atPath: path) else { throw MigrationError.noStore(path: path) }
      return Self.currentVersion
    case .foreign: throw MigrationError.notForager(path: path)
    case .forager(let version):
      if version > Self.currentVersion { throw MigrationError.tooNew(path: path, version: version) }
      return version
    }
  }

  private func openQueue() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    configuration.label = "forager-migration"
    // A migration reads and rewrites most of the file in a few transactions: with
    // SQLite's default 2,000-page cache, a store of a few hundred thousand rows evicts
    // the index pages it is about to revisit. 64 MiB of cache, temporary tables in memory.
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA cache_size = -65536")
      try db.execute(sql: "PRAGMA temp_store = MEMORY")
    }
    return try DatabaseQueue(path: path, configuration: configuration)
  }

  /// Runs one step in one transaction; on any error the transaction rolls back and the
  /// error says at which version the store remains.
  private func step<T>(
    _ step: Step, _ queue: DatabaseQueue, version: Int, _ body: (Database, any StoreWriter, Date) throws -> T
  ) throws -> T {
    let now = clock()
    var result: T?
    do {
      try queue.inTransaction(.immediate) { db in
        // Its writes do not keep the live-record counter: the next store to open rebuilds it.
        try SQLiteSchemaSupport.dropLiveCounts(db)
        let writer = SQLiteSchemaSupport.writer(db, origin: .migration, now: now)
        result = try body(db, writer, now)
        if failBeforeCommitting == step { throw InjectedFault(step: step) }
        return .commit
      }
    } catch let error as MigrationError {
      throw error
    } catch {
      throw MigrationError.failed(path: path, stage: step.rawValue, version: version, reason: "\(error)")
    }
    guard let result else { throw MigrationError.failed(path: path, stage: step.rawValue, version: version, reason: "no result") }
    return result
  }

  /// Copies the file (after folding its write-ahead log in) to `PATH.vN.backup`, or
  /// `PATH.vN.backup.2` and so on when that exists.
  private func backup(version: Int) throws -> String {
    let queue = try openQueue()
    try queue.inDatabase { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    try queue.close()
    var candidate = "\(path).v\(version).backup"
    var counter = 1
    while FileManager.default.fileExists(atPath: candidate) {
      counter += 1
      candidate = "\(path).v\(version).backup.\(counter)"
    }
    try FileManager.default.copyItem(atPath: path, toPath: candidate)
    return candidate
  }
}

/// The failure `failBeforeCommitting` injects.
package struct InjectedFault: Error, CustomStringConvertible {
  let step: StoreMigrator.Step
  package var description: String { "injected failure in \(step.rawValue)" }
}
