import Foundation
import Model
import Persistence
import TestSupport
import Testing

@testable import Sync

/// The `sync.ref` index answers the same whether a kind's entries are read whole (few) or
/// by target (many), and sees the entries its own transaction wrote.
@Suite struct DependencyIndexTests {
  static func key(_ kind: EntityKind, _ number: Int) -> RecordKey {
    RecordKey(kind: kind, id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!)
  }

  /// Writes `count` entries: meal plan n depends on recipe n % 7.
  static func seed(_ store: any Store, count: Int) throws {
    try store.write(origin: .sync) { writer in
      let index = DependencyIndex(writer)
      for number in 0..<count { try index.note(key(.mealPlan, number), dependsOn: key(.recipe, number % 7)) }
    }
  }

  /// What a range read of one target's entries gives.
  static func stored(_ reader: any StoreReader, _ target: RecordKey) throws -> Set<RecordKey> {
    let prefix = ReplicaKeys.references(to: target)
    return Set(try reader.metadataKeys(withPrefix: prefix).compactMap { ReplicaKeys.parsePath($0, from: prefix.utf8.count) })
  }

  @Test(arguments: TestBackend.allCases, [3, DependencyIndex.wholeKindLimit, DependencyIndex.wholeKindLimit + 1, 700])
  func dependentsAreWhatTheStoreHolds(_ backend: TestBackend, count: Int) throws {
    let store = try backend.makeStore()
    try Self.seed(store, count: count)
    try store.write(origin: .sync) { writer in
      let index = DependencyIndex(writer)
      for number in 0..<8 {
        let target = Self.key(.recipe, number)
        let expected = Set((0..<count).filter { $0 % 7 == number }.map { Self.key(.mealPlan, $0) })
        #expect(Set(try index.dependents(of: target)) == expected, "recipe \(number) of \(count) entries")
        #expect(Set(try index.dependents(of: target)) == (try Self.stored(writer, target)))
      }
      // An entry this transaction adds is seen at once, for a target with entries and one without.
      try index.note(Self.key(.mealPlan, 9_000), dependsOn: Self.key(.recipe, 1))
      try index.note(Self.key(.mealPlan, 9_001), dependsOn: Self.key(.recipe, 8))
      #expect(try index.dependents(of: Self.key(.recipe, 1)).contains(Self.key(.mealPlan, 9_000)))
      #expect(try index.dependents(of: Self.key(.recipe, 8)) == [Self.key(.mealPlan, 9_001)])
      #expect(Set(try index.dependents(of: Self.key(.recipe, 1))) == (try Self.stored(writer, Self.key(.recipe, 1))))
      // Another kind's entries are not mixed in.
      #expect(try index.dependents(of: Self.key(.category, 1)) == [])
    }
  }
}
