import Foundation
import Model
import Persistence
import TestSupport
import Testing

/// A seeded random workload applied to every backend must leave identical stores,
/// identical change logs and identical query answers.
@Suite("Backend equivalence")
struct BackendEquivalenceTests {
  @Test(arguments: [1, 2, 3, 42])
  func randomWorkloadsLeaveIdenticalStores(seed: UInt64) throws {
    let stores = try TestBackend.allCases.map { try $0.makeStore() }
    var outcomes: [[String]] = []
    for store in stores {
      var random = SeededGenerator(seed: seed)
      outcomes.append(try Self.run(store, &random))
    }
    let dumps = try stores.map { try $0.dump() }
    let logs = try stores.map {
      try $0.changeLog().map { [$0.kind.rawValue, $0.id.uuidString, $0.operation.rawValue, $0.fields.joined(separator: ",")] }
    }
    #expect(outcomes[0] == outcomes[1], "seed \(seed)")
    #expect(dumps[0] == dumps[1], "seed \(seed)")
    #expect(logs[0] == logs[1], "seed \(seed)")
    #expect(!dumps[0].isEmpty)
    let queries = [
      RecordQuery(.category, filters: [.contains("displayName", "a")], sort: [SortKey("sortOrder", ascending: false)], limit: 5),
      RecordQuery(.category, includeDeleted: true, sort: [SortKey("updatedAt")]),
      RecordQuery(.category, filters: [.anyOf([.equals("sortOrder", .integer(3)), .contains("normalizedName", "b")])]),
    ]
    for query in queries {
      let answers = try stores.map { store in try store.read { try $0.fetch(query) }.map(\.id) }
      #expect(answers[0] == answers[1], "seed \(seed), \(query)")
    }
  }

  /// Inserts, renames, reorders and deletes categories at random, catching typed errors
  /// and recording them, in small transactions some of which abort.
  static func run(_ store: any Store, _ random: inout SeededGenerator) throws -> [String] {
    struct Abort: Error {}
    let names = ["Produce", "Dairy", "Bakery", "Pantry", "Frozen", "Meat", "Household", "Snacks"]
    var ids: [UUID] = []
    var outcomes: [String] = []
    for step in 0..<300 {
      let pick = Int(random.next() % 4)
      let shouldAbort = random.next() % 10 == 0
      do {
        try store.write { writer in
          switch pick {
          case 0:
            let name = names[Int(random.next() % UInt64(names.count))]
            let id = random.uuid()
            let date = Fixtures.epoch.addingTimeInterval(Double(step))
            let record = Category(
              meta: RecordMetadata(id: id, createdAt: date), displayName: name, normalizedName: name.lowercased(),
              sortOrder: Int64(random.next() % 5)
            ).record
            try writer.insertRecord(record)
            ids.append(id)
          case 1, 2:
            guard !ids.isEmpty, var record = try writer.record(.category, id: ids[Int(random.next() % UInt64(ids.count))]) else { return }
            let name = names[Int(random.next() % UInt64(names.count))]
            record["displayName"] = .text(name)
            record["normalizedName"] = .text(name.lowercased())
            record["sortOrder"] = .integer(Int64(random.next() % 5))
            record.meta.updatedAt = Fixtures.epoch.addingTimeInterval(Double(step))
            try writer.updateRecord(record)
          default:
            guard !ids.isEmpty else { return }
            try writer.tombstoneRecord(
              .category, id: ids[Int(random.next() % UInt64(ids.count))], at: Fixtures.epoch.addingTimeInterval(Double(step)))
          }
          if shouldAbort { throw Abort() }
        }
        outcomes.append("ok")
      } catch let error as StoreError {
        outcomes.append("\(error)")
      } catch {
        outcomes.append("aborted")
      }
    }
    return outcomes
  }
}
