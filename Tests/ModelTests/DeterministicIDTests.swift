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

  @Test func theKeeperOrderIsTheOrderOfTheLowercaseStrings() {
    var random = SeededGenerator(seed: 99)
    var ids = (0..<300).map { _ in random.uuid() }
    // Ids that differ in one nibble, digit against letter, at either end.
    ids += [
      "00000000-0000-0000-0000-000000000009", "00000000-0000-0000-0000-00000000000a", "90000000-0000-0000-0000-000000000000",
      "a0000000-0000-0000-0000-000000000000",
    ].compactMap(UUID.init(uuidString:))
    for (left, right) in zip(ids, ids.shuffled(using: &random)) {
      #expect(UUID.keeperOrder(left, right) == (left.uuidString.lowercased() < right.uuidString.lowercased()))
    }
    #expect(ids.sorted(by: UUID.keeperOrder) == ids.sorted { $0.uuidString.lowercased() < $1.uuidString.lowercased() })
  }

  @Test func hyphenatedHexParsesEitherCaseAndNothingElse() {
    var random = SeededGenerator(seed: 7)
    for id in (0..<100).map({ _ in random.uuid() }) {
      #expect(UUID(hyphenatedHex: id.uuidString) == id)
      #expect(UUID(hyphenatedHex: id.lowercaseText) == id)
    }
    for bad in [
      "", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810-9dad-11d1-80b4-00c04fd430c8x", "6ba7b8109dad-11d1-80b4-00c04fd430c8-",
      "6ba7b810-9dad-11d1-80b4-00c04fd430cg", "{6ba7b810-9dad-11d1-80b4-00c04fd430c}",
    ] {
      #expect(UUID(hyphenatedHex: bad) == nil, "\(bad)")
    }
  }

  @Test func childIdsShareTheirParentsPrefixAndSortByPosition() throws {
    let parent = try #require(UUID(uuidString: "4F0C7A2E-9A43-4C55-8F3B-2B1D3C4E5F60"))
    let children = try (0..<300).map { try #require(DeterministicID.child(of: parent, at: $0)) }
    #expect(children[0].lowercaseText == "4f0c7a2e-9a43-4c55-8f3b-2b1d3c4e0000")
    #expect(children[258].lowercaseText == "4f0c7a2e-9a43-4c55-8f3b-2b1d3c4e0102")
    #expect(Set(children).count == children.count)
    #expect(children == children.sorted(by: UUID.keeperOrder))
    #expect(DeterministicID.child(of: parent, at: 65_535)?.lowercaseText == "4f0c7a2e-9a43-4c55-8f3b-2b1d3c4effff")
    #expect(DeterministicID.child(of: parent, at: 65_536) == nil)
    #expect(DeterministicID.child(of: parent, at: -1) == nil)
  }

  @Test func lowercaseTextIsTheLowercaseUUIDString() {
    var ids = (0..<200).map { _ in UUID() }
    ids.append(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)
    ids.append(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!)
    for id in ids {
      #expect(id.lowercaseText == id.uuidString.lowercased())
    }
    // Written into a longer text: at the offset, nothing before it touched.
    let id = ids[0]
    let text = String(unsafeUninitializedCapacity: 40) { buffer in
      for index in 0..<4 { buffer[index] = UInt8(ascii: "x") }
      return id.writeLowercaseText(into: buffer, at: 4)
    }
    #expect(text == "xxxx" + id.uuidString.lowercased())
  }
}
