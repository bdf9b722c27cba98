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

  /// A refused insert or update, caught inside a transaction that goes on and commits,
  /// leaves nothing of itself: no row, and none of its list's elements (the SQLite side
  /// table's triggers run only for rows written; the row statements use FAIL, which keeps
  /// what a statement wrote before it failed, and a row statement writes nothing before).
  @Test(arguments: TestBackend.allCases)
  func aRefusedRowWriteLeavesNoElementsBehind(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let egg = Fixtures.template("egg", aliases: ["hen egg"])
    var duck = Fixtures.template("duck egg", aliases: ["duck"])
    try store.write { writer in
      try writer.insertRecord(egg)
      try writer.insertRecord(duck)
    }
    let refused = try store.write { writer -> [StoreError] in
      var errors: [StoreError] = []
      do { try writer.insertRecord(Fixtures.template("Egg", aliases: ["second egg"])) } catch let error as StoreError {
        errors.append(error)
      }
      do { try writer.insertRecord(Fixtures.template("quail egg", aliases: ["quail"], id: duck.id)) } catch let error as StoreError {
        errors.append(error)
      }
      duck["canonicalName"] = .text("egg")
      duck["aliases"] = .textList(["renamed duck"])
      do { try writer.updateRecord(duck) } catch let error as StoreError { errors.append(error) }
      try writer.insertRecord(Fixtures.template("goose egg", aliases: ["goose"]))
      return errors
    }
    #expect(refused.count == 3, "\(refused)")
    for alias in ["second egg", "quail", "renamed duck"] { #expect(try ids(store, alias, includeDeleted: true).isEmpty, "\(alias)") }
    #expect(try ids(store, "duck").count == 1 && ids(store, "hen egg") == [egg.id] && ids(store, "goose").count == 1)
    #expect(try store.read { try $0.count(RecordQuery(.ingredientTemplate)) } == 3)
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
