import Foundation
import Model
import Testing

@testable import Sync

/// The per-record stamps earlier versions kept (compactly, each distinct stamp once, or as
/// JSON) are read back exactly, for converting such a store to register states.
@Suite struct StampCodingTests {
  let stamps: [String: Stamp] = [
    "displayName": Stamp(time: 1_700_000_000_123, counter: 3, replica: "a1b2"),
    "canonicalName": Stamp(time: 1_700_000_000_123, counter: 3, replica: "a1b2"),
    "@deleted": Stamp(time: -5, counter: 0, replica: "z"),
    "aliases": Stamp(time: Int64.max, counter: Int32.min, replica: ""),
  ]

  @Test func writesEachStampOnceWithItsFieldsSorted() {
    #expect(
      StampCoding.encode(stamps)
        == "@-5.0.z=@deleted;1700000000123.3.a1b2=canonicalName,displayName;9223372036854775807.-2147483648.=aliases"
    )
    #expect(StampCoding.encode([:]) == "@")
    let once = Stamp(time: 1_700_000_000_123, counter: 0, replica: "a1b2")
    #expect(
      StampCoding.encode(["usageCount": once, "aliases": once, "lastUsed": once]) == "@1700000000123.0.a1b2=aliases,lastUsed,usageCount")
    #expect(StampCoding.encode(["x": Stamp(time: Int64.min, counter: -1, replica: "r")]) == "@-9223372036854775808.-1.r=x")
  }

  @Test func readsBackWhatItWrites() {
    #expect(StampCoding.decode(StampCoding.encode(stamps)) == stamps)
    #expect(StampCoding.decode("@") == [:])
    let one = ["sortOrder": Stamp(time: 1, counter: 0, replica: "4f0c7a2e-9a43-4c55-8f3b-2b1d3c4e5f60")]
    #expect(StampCoding.decode(StampCoding.encode(one)) == one)
  }

  @Test func readsTheJSONOfEarlierVersions() throws {
    let sorted = String(decoding: try JSONEncoder.sorted.encode(stamps), as: UTF8.self)
    #expect(StampCoding.encodeJSON(stamps) == sorted)
    #expect(StampCoding.decode(sorted) == stamps)
    let spaced = String(decoding: try JSONEncoder().encode(stamps), as: UTF8.self)
    #expect(StampCoding.decode(spaced) == stamps)
    #expect(StampCoding.decode("{}") == [:])
  }

  @Test func namesTheCompactFormCannotHoldAreWrittenAsJSON() throws {
    let odd = ["say \"hi\"\\\n": Stamp(time: 1, counter: 2, replica: "r\"1"), "a,b": Stamp(time: 3, counter: 0, replica: "x")]
    let expected = String(decoding: try JSONEncoder.sorted.encode(odd), as: UTF8.self)
    #expect(StampCoding.encode(odd) == expected)
    #expect(StampCoding.decode(StampCoding.encode(odd)) == odd)
    let oddReplica = ["name": Stamp(time: 3, counter: 0, replica: "x=y;z")]
    #expect(StampCoding.encode(oddReplica).hasPrefix("{"))
    #expect(StampCoding.decode(StampCoding.encode(oddReplica)) == oddReplica)
  }

  @Test func damagedTextDecodesAsNoStamps() {
    #expect(StampCoding.decode("{\"a\":{\"counter\":") == [:])
    #expect(StampCoding.decode("not json") == [:])
    #expect(StampCoding.decode("@12.x.r=a") == [:])
    #expect(StampCoding.decode("@12.0.r") == [:])
    #expect(StampCoding.decode("@12.0.r=") == [:])
    #expect(StampCoding.decode("@99999999999999999999.0.r=a") == [:])
  }

  @Test func metadataKeysSpellIDsInLowercase() {
    let id = UUID()
    #expect(
      ReplicaKeys.push(RecordKey(kind: .ingredientTemplate, id: id)) == "sync.push/ingredientTemplate/\(id.uuidString.lowercased())")
  }
}

extension JSONEncoder {
  /// What earlier versions wrote stamps with.
  static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }
}
