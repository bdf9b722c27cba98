import Foundation
import Model
import Persistence
import TestSupport
import Testing

/// `hasElement` finds records whose text list holds an element exactly, on every backend,
/// and follows updates and deletes (the SQLite side table is kept by triggers).
@Suite("Element filter")
struct ElementFilterTests {
  func ids(_ store: any Store, _ alias: String, includeDeleted: Bool = false) throws -> [UUID] {
    try store.read {
      try $0.fetch(RecordQuery(.ingredientTemplate, filters: [.hasElement("aliases", alias)], includeDeleted: includeDeleted, sort: []))
    }.map(\.id)
  }

  @Test(arguments: TestBackend.allCases)
  func findsExactElementsOnlyAndFollowsUpdates(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let onion = Fixtures.template("spring onion", aliases: ["scallion", "green onion"])
    let pepper = Fixtures.template("bell pepper", aliases: ["capsicum"])
    try store.write { writer in
      try writer.insertRecord(onion)
      try writer.insertRecord(pepper)
    }
    #expect(try ids(store, "scallion") == [onion.id])
    #expect(try ids(store, "green onion") == [onion.id])
    #expect(try ids(store, "onion").isEmpty)
    #expect(try ids(store, "Scallion").isEmpty)

    var renamed = onion
    renamed["aliases"] = .textList(["shallot"])
    try store.write { try $0.updateRecord(renamed) }
    #expect(try ids(store, "scallion").isEmpty)
    #expect(try ids(store, "shallot") == [onion.id])

    try store.write { try $0.tombstoneRecord(.ingredientTemplate, id: pepper.id, at: Fixtures.epoch) }
    #expect(try ids(store, "capsicum").isEmpty)
    #expect(try ids(store, "capsicum", includeDeleted: true) == [pepper.id])
  }

  @Test func aFileOpenedAgainIndexesTheAliasesItAlreadyHas() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let onion = Fixtures.template("spring onion", aliases: ["scallion"])
    try TestBackend.factory.open("sqlite:\(path)").write { try $0.insertRecord(onion) }
    let reopened = try TestBackend.factory.open("sqlite:\(path)")
    #expect(try ids(reopened, "scallion") == [onion.id])
  }
}
