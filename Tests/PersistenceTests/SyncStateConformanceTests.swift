import Foundation
import Model
import Persistence
import TestSupport
import Testing

/// Sync's record states (`setSyncState`, `syncStates`, `syncStateHolders`,
/// `syncStateIDs`), run against every backend: kept by kind and id, indexed by the key each
/// holds, part of the transaction, and never logged.
@Suite("Sync state conformance")
struct SyncStateConformanceTests {
  /// A fixed id per number, so the tests replay exactly.
  static func id(_ number: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))! }

  @Test(arguments: TestBackend.allCases)
  func statesAreSetReplacedAndRemovedByKindAndID(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write(origin: .sync) { writer in
      try writer.setSyncState("first", key: "bread", kind: .category, id: Self.id(1))
      try writer.setSyncState("crème 🍞", key: nil, kind: .category, id: Self.id(2))
      try writer.setSyncState("a recipe", key: nil, kind: .recipe, id: Self.id(1))
      try writer.setSyncState("gone", key: "milk", kind: .category, id: Self.id(3))
      try writer.setSyncState("second", key: "bread", kind: .category, id: Self.id(1))
      try writer.setSyncState(nil, key: nil, kind: .category, id: Self.id(3))
      // Inside the transaction, reads see its writes.
      #expect(try writer.syncStates(.category, ids: [Self.id(1)]) == [Self.id(1): "second"])
    }
    try store.read { (reader) throws in
      let ids = [1, 2, 3, 4].map(Self.id)
      #expect(try reader.syncStates(.category, ids: ids) == [Self.id(1): "second", Self.id(2): "crème 🍞"])
      #expect(try reader.syncStates(.recipe, ids: ids) == [Self.id(1): "a recipe"])
      #expect(try Set(reader.syncStateIDs(.category)) == [Self.id(1), Self.id(2)])
      #expect(try reader.syncStateIDs(.recipe) == [Self.id(1)])
      #expect(try reader.syncStateIDs(.tag).isEmpty)
      #expect(try reader.syncStates(.category, ids: []).isEmpty)
    }
    #expect(try store.changeLog().isEmpty, "sync states are not logged")
    #expect(try store.read { try $0.metadataKeys(withPrefix: "") }.isEmpty, "nor kept as metadata")
  }

  @Test(arguments: TestBackend.allCases)
  func holdersFollowTheKeyEachStateHolds(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    func holders(_ kind: EntityKind, _ keys: [String]) throws -> [String: Set<UUID>] {
      try store.read { try $0.syncStateHolders(kind, keys: keys).mapValues(Set.init) }
    }
    try store.write(origin: .sync) { writer in
      try writer.setSyncState("a", key: "bread", kind: .category, id: Self.id(1))
      try writer.setSyncState("b", key: "bread", kind: .category, id: Self.id(2))
      try writer.setSyncState("c", key: "milk", kind: .category, id: Self.id(3))
      try writer.setSyncState("d", key: nil, kind: .category, id: Self.id(4))
      try writer.setSyncState("e", key: "bread", kind: .tag, id: Self.id(5))
    }
    #expect(
      try holders(.category, ["bread", "milk", "none", "bread"]) == ["bread": [Self.id(1), Self.id(2)], "milk": [Self.id(3)]])
    #expect(try holders(.tag, ["bread", "milk"]) == ["bread": [Self.id(5)]])
    try store.write(origin: .sync) { writer in
      try writer.setSyncState("b2", key: "milk", kind: .category, id: Self.id(2))
      try writer.setSyncState("a2", key: nil, kind: .category, id: Self.id(1))
      try writer.setSyncState(nil, key: nil, kind: .category, id: Self.id(3))
      try writer.setSyncState("d2", key: "milk", kind: .category, id: Self.id(4))
    }
    #expect(try holders(.category, ["bread", "milk"]) == ["milk": [Self.id(2), Self.id(4)]])
    // A writer that knows the stored key is the one it gives, or that no state is stored,
    // may say so: the state changes, and the key is indexed for a new state.
    try store.write(origin: .sync) { writer in
      try writer.setSyncState("b3", key: "milk", kind: .category, id: Self.id(2), keyUnchanged: true)
      try writer.setSyncState("f", key: "milk", kind: .category, id: Self.id(6), keyUnchanged: true)
    }
    #expect(try holders(.category, ["bread", "milk"]) == ["milk": [Self.id(2), Self.id(4), Self.id(6)]])
    #expect(try store.read { try $0.syncStates(.category, ids: [Self.id(2), Self.id(6)]) } == [Self.id(2): "b3", Self.id(6): "f"])
  }

  @Test(arguments: TestBackend.allCases)
  func aFailedTransactionLeavesTheStatesAndTheirKeysAsTheyWere(_ backend: TestBackend) throws {
    struct Abort: Error {}
    let store = try backend.makeStore()
    try store.write(origin: .sync) { writer in
      try writer.setSyncState("a", key: "bread", kind: .category, id: Self.id(1))
      try writer.setSyncState("b", key: "milk", kind: .category, id: Self.id(2))
    }
    #expect(throws: Abort.self) {
      try store.write(origin: .sync) { writer in
        try writer.setSyncState("a2", key: "milk", kind: .category, id: Self.id(1))
        try writer.setSyncState(nil, key: nil, kind: .category, id: Self.id(2))
        try writer.setSyncState("c", key: "bread", kind: .category, id: Self.id(3))
        throw Abort()
      }
    }
    try store.read { (reader) throws in
      #expect(try reader.syncStates(.category, ids: [1, 2, 3].map(Self.id)) == [Self.id(1): "a", Self.id(2): "b"])
      let holders = try reader.syncStateHolders(.category, keys: ["bread", "milk"])
      #expect(holders == ["bread": [Self.id(1)], "milk": [Self.id(2)]])
    }
  }

  /// Reads of many ids and keys at once give what reads of one give, whatever their count
  /// (the SQLite backend reads 64 per statement and a few one by one).
  @Test(arguments: TestBackend.allCases, [1, 7, 8, 64, 65, 200])
  func manyStatesAndKeysAreReadAtOnce(_ backend: TestBackend, _ count: Int) throws {
    let store = try backend.makeStore()
    try store.write(origin: .sync) { writer in
      for number in 0..<count {
        try writer.setSyncState("state \(number)", key: "key \(number % 50)", kind: .ingredientTemplate, id: Self.id(number))
      }
    }
    let ids = (0..<(count + 3)).map(Self.id)
    let keys = (0..<60).map { "key \($0)" }
    try store.read { (reader) throws in
      let states = try reader.syncStates(.ingredientTemplate, ids: ids)
      #expect(states.count == count)
      #expect(states.allSatisfy { id, text in ids.firstIndex(of: id).map { "state \($0)" } == text })
      let holders = try reader.syncStateHolders(.ingredientTemplate, keys: keys).mapValues(Set.init)
      var expected: [String: Set<UUID>] = [:]
      for number in 0..<count { expected["key \(number % 50)", default: []].insert(Self.id(number)) }
      #expect(holders == expected)
      for key in keys.prefix(3) {
        #expect(try reader.syncStateHolders(.ingredientTemplate, keys: [key]).mapValues(Set.init) == expected.filter { $0.key == key })
      }
    }
  }
}
