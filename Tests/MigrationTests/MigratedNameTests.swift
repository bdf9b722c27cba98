import Foundation
import GRDB
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

/// Names from the earlier app come over as the app itself would keep them: inner runs of
/// spaces, tabs and newlines become one space, and every text is in NFC.
@Suite struct MigratedNameTests {
  @Test func innerWhitespaceRunsAreCollapsed() throws {
    let (path, _) = try legacyStore(seed: 3, records: 300)
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "UPDATE Category SET name = ? WHERE rowid = (SELECT min(rowid) FROM Category)", arguments: ["Crème  Fraîche"])
      try db.execute(sql: "UPDATE Recipe SET title = ? WHERE rowid = (SELECT min(rowid) FROM Recipe)", arguments: [" Mom's\t\tLasagna \n"])
    }
    try queue.close()
    _ = try migrator(path).migrate(options())
    let library = Library(store: try SQLiteStore(path: path))
    let categories = try library.categories.all().map(\.displayName)
    #expect(categories.contains("Crème Fraîche"))
    #expect(!categories.contains { $0.contains("  ") })
    #expect(try library.recipes.all().map(\.displayName).contains("Mom's Lasagna"))
  }

  @Test func decomposedTextsComeOverInNFC() throws {
    let (path, _) = try legacyStore(seed: 4, records: 300)
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: "UPDATE Category SET name = ? WHERE rowid = (SELECT min(rowid) FROM Category)", arguments: ["Pa\u{302}tisserie fine"])
      try db.execute(
        sql: "UPDATE Recipe SET title = ? WHERE rowid = (SELECT min(rowid) FROM Recipe)", arguments: ["Cre\u{300}me bru\u{302}le\u{301}e"])
    }
    try queue.close()
    _ = try migrator(path).migrate(options())
    let store = try SQLiteStore(path: path)
    let library = Library(store: store)
    #expect(try library.categories.all().contains { Array($0.displayName.utf8) == Array("P\u{E2}tisserie fine".utf8) })
    #expect(try library.recipes.all().contains { Array($0.displayName.utf8) == Array("Cr\u{E8}me br\u{FB}l\u{E9}e".utf8) })
    let decomposed = try store.dump().filter { record in record.fields.values.contains { $0.canonicalized != nil } }
    #expect(decomposed.isEmpty, "\(decomposed.map(\.displayText))")
  }
}
