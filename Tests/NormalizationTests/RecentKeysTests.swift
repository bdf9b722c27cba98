import Model
import Testing

@testable import Normalization

/// The table of recent keys answers from what it kept, folds what it did not, and never
/// holds more than its capacity.
@Suite("Recent keys")
struct RecentKeysTests {
  @Test func foldsEachNameOnceWhileItIsKeptAndStaysWithinItsCapacity() {
    let keys = RecentKeys(capacity: 4)
    var folds: [String] = []
    func key(_ name: String) -> String {
      keys.key(of: name) { name in
        folds.append(name)
        return name.uppercased()
      }
    }
    #expect(["a", "b", "a", "c", "b", "d"].map(key) == ["A", "B", "A", "C", "B", "D"])
    #expect(folds == ["a", "b", "c", "d"])
    #expect(keys.count == 4)
    // Full: the next new name empties the table, so the earlier names are folded again.
    #expect(key("e") == "E" && keys.count == 1)
    #expect(key("a") == "A")
    #expect(folds == ["a", "b", "c", "d", "e", "a"])
    for index in 0..<100 { _ = key("name \(index)") }
    #expect(keys.count <= 4)
  }

  /// Property: over generated names, each answer equals the fold's, with any capacity.
  @Test(arguments: [1, 3, 64])
  func answersAsTheFoldDoes(capacity: Int) {
    let keys = RecentKeys(capacity: capacity)
    var random = SeededGenerator(seed: UInt64(capacity))
    let names = (0..<40).map { "Tomato\(String(repeating: "e", count: $0 % 3))s \($0 % 7)" }
    for _ in 0..<2_000 {
      let name = names[Int(random.next() % UInt64(names.count))]
      let kept = keys.key(of: name) { SemanticKey.canonicalIngredientName($0, aliases: ["x": "y"]) }
      #expect(kept == SemanticKey.canonicalIngredientName(name, aliases: ["x": "y"]))
      #expect(keys.count <= capacity)
    }
  }
}
