import Foundation
import GRDB

/// Direct looks into a SQLite file, bypassing Forager, for tests of the file format.
enum SQLiteInspector {
  static func userVersion(_ path: String) throws -> Int {
    try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? -1 }
  }

  static func journalMode(_ path: String) throws -> String {
    try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "" }
  }

  static func indexes(_ path: String) throws -> Set<String> {
    try DatabaseQueue(path: path).read {
      Set(try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"))
    }
  }

  /// The `CREATE INDEX` statement the file holds for the index `name`, nil when absent.
  static func indexSQL(_ path: String, _ name: String) throws -> String? {
    try DatabaseQueue(path: path).read {
      try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name])
    }
  }

  /// The `CREATE TABLE` statement the file holds for the table `name`, nil when absent.
  static func tableSQL(_ path: String, _ name: String) throws -> String? {
    try DatabaseQueue(path: path).read {
      try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name])
    }
  }

  /// The details of `EXPLAIN QUERY PLAN` for `sql`, one line per step.
  static func queryPlan(_ path: String, _ sql: String) throws -> [String] {
    try DatabaseQueue(path: path).read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)").map { $0["detail"] as String? ?? "" }
    }
  }

  static func execute(_ path: String, _ sql: String) throws {
    try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: sql) }
  }
}
