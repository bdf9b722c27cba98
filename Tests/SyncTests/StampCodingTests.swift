import Foundation
import Model
import Testing

@testable import Sync

/// The hand-written stamp codec writes what `JSONEncoder` with sorted keys writes and
/// reads both its own text and anything else valid.
@Suite struct StampCodingTests {
  let stamps: [String: Stamp] = [
    "displayName": Stamp(time: 1_700_000_000_123, counter: 3, replica: "a1b2"),
    "@deleted": Stamp(time: -5, counter: 0, replica: "z"),
    "aliases": Stamp(time: Int64.max, counter: Int32.min, replica: ""),
  ]

  @Test func encodesExactlyWhatTheSortedJSONEncoderWrites() throws {
    let expected = String(decoding: try JSONEncoder.sorted.encode(stamps), as: UTF8.self)
    #expect(StampCoding.encode(stamps) == expected)
    #expect(StampCoding.encode([:]) == "{}")
  }

  @Test func decodesItsOwnTextAndTheEncodersText() throws {
    #expect(StampCoding.decode(StampCoding.encode(stamps)) == stamps)
    let spaced = String(decoding: try JSONEncoder().encode(stamps), as: UTF8.self)
    #expect(StampCoding.decode(spaced) == stamps)
    #expect(StampCoding.decode("{}") == [:])
  }

  @Test func escapedNamesRoundTrip() throws {
    let odd = ["say \"hi\"\\\n": Stamp(time: 1, counter: 2, replica: "r\"1")]
    let expected = String(decoding: try JSONEncoder.sorted.encode(odd), as: UTF8.self)
    #expect(StampCoding.encode(odd) == expected)
    #expect(StampCoding.decode(StampCoding.encode(odd)) == odd)
  }

  @Test func damagedTextDecodesAsNoStamps() {
    #expect(StampCoding.decode("{\"a\":{\"counter\":") == [:])
    #expect(StampCoding.decode("not json") == [:])
  }

  @Test func metadataKeysSpellIDsInLowercase() {
    let id = UUID()
    #expect(ReplicaKeys.stamps(.ingredientTemplate, id) == "sync.stamps/ingredientTemplate/\(id.uuidString.lowercased())")
  }
}
