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
/// spaces, tabs and newlines become one space.
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
}
