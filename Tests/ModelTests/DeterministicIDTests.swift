import Foundation
import Model
import Testing

@Suite("Deterministic ids")
struct DeterministicIDTests {
  @Test func versionFiveMatchesTheRFCAlgorithm() throws {
    // uuid5(NAMESPACE_DNS, "python.org") from Python's uuid module.
    let dns = try #require(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
    #expect(DeterministicID.uuidV5(namespace: dns, name: "python.org").uuidString.lowercased() == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
  }

  @Test func theSameKindAndKeyGiveTheSameIDAndAnythingElseAnother() {
    let produce = DeterministicID.make(kind: .category, semanticKey: "produce")
    #expect(DeterministicID.make(kind: .category, semanticKey: "produce") == produce)
    #expect(DeterministicID.make(kind: .tag, semanticKey: "produce") != produce)
    #expect(DeterministicID.make(kind: .category, semanticKey: "produce#2") != produce)
    #expect(produce.uuidString.lowercased().dropFirst(14).first == "5")
  }

  @Test func theKeeperOrderComparesLowercaseText() throws {
    let small = try #require(UUID(uuidString: "0000000A-0000-0000-0000-000000000000"))
    let large = try #require(UUID(uuidString: "0000000b-0000-0000-0000-000000000000"))
    #expect(UUID.keeperOrder(small, large))
    #expect(!UUID.keeperOrder(large, small))
    #expect(!UUID.keeperOrder(small, small))
  }

  @Test func lowercaseTextIsTheLowercaseUUIDString() {
    var ids = (0..<200).map { _ in UUID() }
    ids.append(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)
    ids.append(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!)
    for id in ids {
      #expect(id.lowercaseText == id.uuidString.lowercased())
    }
  }
}
