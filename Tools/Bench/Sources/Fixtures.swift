import BenchBaselines
import Foundation
import Model
import Normalization
import PersistenceSQLite

/// Names the scenarios use: distinct words that no singular/plural rule folds together.
enum Names {
  private static let letters = Array("bcdfghjklmnpqrtvwxz")

  /// A three-or-more letter word for `index`, different for every index.
  static func word(_ index: Int) -> String {
    var value = index, word = ""
    repeat {
      word.append(letters[value % letters.count])
      value /= letters.count
    } while value > 0
    while word.count < 3 { word.append("a") }
    return word
  }

  static func template(_ index: Int, prefix: String = "herb") -> String { "\(prefix) \(word(index))" }
}

/// Builds large stores fast, with the raw C API, in the exact layout `SQLiteStore`
/// creates (the store creates the file and schema first). Rows get the same name-based
/// ids get-or-create would give them; no change-log entries are written (the store is
/// as if imported long ago and already synced).
enum StoreFixture {
  static func templates(at path: String, count: Int, prefix: String = "herb") throws -> [String] {
    _ = try SQLiteStore(path: path)
    let db = try RawDatabase(path: path)
    let insert = try RawInsert(db, table: "ingredientTemplate")
    let now = Date().timeIntervalSinceReferenceDate
    var keys: [String] = []
    keys.reserveCapacity(count)
    try db.execute("BEGIN IMMEDIATE")
    for index in 0..<count {
      let name = Names.template(index, prefix: prefix)
      let key = SemanticKey.canonicalIngredientName(name)
      keys.append(key)
      insert.bindMetadata(id: DeterministicID.make(kind: .ingredientTemplate, semanticKey: key), at: now)
      insert.bind("displayName", name)
      insert.bind("canonicalName", key)
      insert.bind("aliases", "[]")
      insert.bind("ingredientKind", "herb")
      insert.bind("isStaple", Int64(0))
      insert.bind("usageCount", Int64(0))
      try insert.statement.run()
    }
    try db.execute("COMMIT")
    return keys
  }
}

/// A prepared INSERT of every column of a table, bound by column name (positions looked
/// up once); unbound columns are NULL.
final class RawInsert {
  let statement: RawStatement
  private let positions: [String: Int32]

  init(_ db: RawDatabase, table: String) throws {
    let columns = try db.columns(of: table)
    positions = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element, Int32($0.offset + 1)) })
    let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    statement = try db.prepare(
      "INSERT INTO \"\(table)\" (\(list)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
  }

  func position(_ column: String) -> Int32 { positions[column] ?? 0 }

  func bindMetadata(id: UUID, at time: Double) {
    bind("id", id.uuidString.lowercased())
    bind("createdAt", time)
    bind("updatedAt", time)
    bind("ownerID", RecordMetadata.localOwner)
    bind("sharingScope", SharingScope.private.rawValue)
  }

  func bind(_ column: String, _ text: String) { statement.bind(position(column), text) }
  func bind(_ column: String, _ number: Double) { statement.bind(position(column), number) }
  func bind(_ column: String, _ number: Int64) { statement.bind(position(column), number) }
}
