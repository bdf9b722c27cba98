public import Foundation
import GRDB
public import Sync

/// A cloud in one SQLite file that several processes may share: two `forager` REPLs
/// pointed at one cloud file are two devices.
///
/// Each push is one IMMEDIATE transaction, so concurrent pushes from different processes
/// are serialized whole (never interleaved), and a batch id already in the log is not
/// appended again. Writers wait for each other up to `busyTimeout`.
///
/// ```swift
/// let cloud = try SQLiteCloud(path: "/tmp/kitchen-cloud.sqlite")
/// ```
public final class SQLiteCloud: CloudStore {
  /// The cloud file format this build writes.
  public static let formatVersion = 1
  static let applicationID: Int32 = 0x464F_5243  // "FORC"

  public let location: String
  public let identifier: String
  private let queue: DatabaseQueue

  /// Opens the cloud file at `path`, creating it when missing.
  /// - Throws: ``CloudError/unavailable(location:reason:)`` when the file cannot be opened
  ///   or is not a Forager cloud.
  public init(path: String, busyTimeout: TimeInterval = 30) throws {
    location = "sqlite:\(path)"
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    do {
      // A mistyped path is an error, not a new directory tree somewhere.
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      var isDirectory: ObjCBool = false
      if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
        throw CloudError.unavailable(
          location: "sqlite:\(path)", reason: "the directory \(directory) does not exist (create it first: mkdir -p '\(directory)')")
      }
      queue = try DatabaseQueue(path: path, configuration: configuration)
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        try db.inTransaction(.immediate) {
          let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
          let tables = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0
          if application != Self.applicationID && tables > 0 {
            throw CloudError.unavailable(location: "sqlite:\(path)", reason: "the file is not a Forager cloud")
          }
          let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
          if version > Self.formatVersion {
            throw CloudError.unavailable(location: "sqlite:\(path)", reason: "written by a newer Forager (cloud format \(version))")
          }
          try db.execute(
            sql: """
              CREATE TABLE IF NOT EXISTS cloud_log (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                batch_id TEXT NOT NULL UNIQUE,
                replica TEXT NOT NULL,
                schema_version INTEGER NOT NULL,
                payload BLOB NOT NULL)
              """)
          try db.execute(
            sql: """
              CREATE TABLE IF NOT EXISTS cloud_devices (
                replica TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL,
                schema_version INTEGER NOT NULL, last_seen REAL NOT NULL)
              """)
          try db.execute(sql: "CREATE TABLE IF NOT EXISTS cloud_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
          try db.execute(
            sql: "INSERT OR IGNORE INTO cloud_meta (key, value) VALUES ('identifier', ?)", arguments: [UUID().uuidString.lowercased()])
          try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
          try db.execute(sql: "PRAGMA user_version = \(Self.formatVersion)")
          return .commit
        }
      }
      identifier = try queue.read { try String.fetchOne($0, sql: "SELECT value FROM cloud_meta WHERE key = 'identifier'") } ?? path
    } catch let error as CloudError {
      throw error
    } catch let error as BatchIDTaken {
      throw error
    } catch {
      throw CloudError.unavailable(location: "sqlite:\(path)", reason: Self.describe(error))
    }
  }

  /// Appends `batch` in one IMMEDIATE transaction, or returns the sequence of the batch of
  /// its replica stored under its id (a retry after a lost answer).
  /// - Throws: ``Sync/BatchIDTaken`` when another replica's batch holds the id (nothing is
  ///   written); ``Sync/CloudError`` when the file fails.
  public func push(_ batch: ChangeBatch) throws -> Int64 {
    let payload = ChangeBatchCoding.encode(batch)
    return try perform {
      try queue.writeWithoutTransaction { db in
        var sequence: Int64 = 0
        try db.inTransaction(.immediate) {
          if let existing = try Row.fetchOne(db, sql: "SELECT sequence, replica FROM cloud_log WHERE batch_id = ?", arguments: [batch.id]) {
            let owner: String = try existing.decode(atIndex: 1)
            guard owner.utf8.elementsEqual(batch.replica.utf8) else {
              throw BatchIDTaken(location: location, batchID: batch.id, owner: owner, pusher: batch.replica)
            }
            sequence = try existing.decode(atIndex: 0)
            return .commit
          }
          try db.execute(
            sql: "INSERT INTO cloud_log (batch_id, replica, schema_version, payload) VALUES (?, ?, ?, ?)",
            arguments: [batch.id, batch.replica, batch.schemaVersion, payload]
          )
          sequence = db.lastInsertedRowID
          return .commit
        }
        return sequence
      }
    }
  }

  public func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    try perform {
      try queue.read { db in
        let rows = try Row.fetchAll(
          db.cachedStatement(sql: "SELECT sequence, payload FROM cloud_log WHERE sequence > ? ORDER BY sequence LIMIT ?"),
          arguments: [sequence, max(0, limit)]
        )
        // Decoded with GRDB's throwing reads: another process writes this file, and a
        // value of the wrong type must fail the pull, not trap.
        return try rows.map { row in
          try ChangeBatchCoding.entry(sequence: row.decode(atIndex: 0), bytes: row.decode(atIndex: 1), location: location)
        }
      }
    }
  }

  public func latestSequence() throws -> Int64 {
    try perform { try queue.read { try Int64.fetchOne($0, sql: "SELECT COALESCE(MAX(sequence), 0) FROM cloud_log") ?? 0 } }
  }

  public func close() throws {
    do {
      _ = try queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
      try queue.close()
    } catch {
      throw CloudError.unavailable(location: location, reason: "cannot close: \(error)")
    }
  }

  public func register(_ device: CloudDevice) throws {
    try perform {
      try queue.write { db in
        try db.execute(
          sql: "INSERT OR REPLACE INTO cloud_devices (replica, name, schema_version, last_seen) VALUES (?, ?, ?, ?)",
          arguments: [device.replicaID, device.name, device.schemaVersion, device.lastSeen.timeIntervalSince1970]
        )
      }
    }
  }

  public func devices() throws -> [CloudDevice] {
    try perform {
      try queue.read { db in
        try Row.fetchAll(db, sql: "SELECT replica, name, schema_version, last_seen FROM cloud_devices ORDER BY name").map {
          try CloudDevice(
            replicaID: $0.decode(atIndex: 0), name: $0.decode(atIndex: 1), schemaVersion: $0.decode(atIndex: 2),
            lastSeen: Date(timeIntervalSince1970: $0.decode(atIndex: 3)))
        }
      }
    }
  }

  private func perform<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as CloudError {
      throw error
    } catch let error as BatchIDTaken {
      throw error
    } catch {
      throw CloudError.unavailable(location: location, reason: Self.describe(error))
    }
  }

  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
    return "\(error)"
  }
}
