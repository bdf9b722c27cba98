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

  private struct Abandoned: Error {}

  /// Property: after any sequence of inserts, alias changes, deletes and transactions that
  /// throw after writing (rolled back), `hasElement` finds exactly the records a scan of the
  /// whole kind finds holding the element, on every backend (the in-memory store answers it
  /// from an index of elements it keeps beside the records).
  @Test(arguments: TestBackend.allCases, [1, 2, 3, 4, 5] as [UInt64])
  func answersAsAScanAfterGeneratedWrites(_ backend: TestBackend, seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let store = try backend.makeStore()
    let elements = ["a", "b", "c", "d", "e", "f"]
    var records: [Record] = []
    func someAliases() -> [String] { Array(elements.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))) }
    for step in 0..<120 {
      let abandon = Int.random(in: 0..<5, using: &random) == 0
      var written = records
      do {
        try store.write { writer in
          for _ in 0..<Int.random(in: 1...3, using: &random) {
            let choice = written.isEmpty ? 0 : Int.random(in: 0..<3, using: &random)
            if choice == 0 {
              let record = Fixtures.template("item \(written.count) \(step)", aliases: someAliases(), id: random.uuid())
              try writer.insertRecord(record)
              written.append(record)
            } else {
              let index = Int.random(in: 0..<written.count, using: &random)
              if choice == 1 {
                written[index]["aliases"] = .textList(someAliases())
                try writer.updateRecord(written[index])
              } else if written[index].meta.isLive {
                try writer.tombstoneRecord(.ingredientTemplate, id: written[index].id, at: Fixtures.epoch)
                written[index] = try #require(try writer.record(.ingredientTemplate, id: written[index].id))
              }
            }
          }
          if abandon { throw Abandoned() }
        }
        records = written
      } catch is Abandoned {}
      let all = try store.read { try $0.fetch(RecordQuery(.ingredientTemplate, includeDeleted: true, sort: [])) }
      for element in elements {
        let scanned = all.filter { record in
          if case .textList(let list) = record["aliases"] { return list.contains(element) }
          return false
        }.map(\.id).sorted { $0.sortsBeforeAsText($1) }
        let found = try ids(store, element, includeDeleted: true).sorted { $0.sortsBeforeAsText($1) }
        #expect(found == scanned, "seed \(seed), step \(step), element \(element)")
      }
    }
  }
}
