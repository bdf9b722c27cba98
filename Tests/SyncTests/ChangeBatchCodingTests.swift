import Foundation
import Model
import Sync
import TestSupport
import Testing

@Suite("Change batch coding")
struct ChangeBatchCodingTests {
  static let stamp = Stamp(time: 1_778_307_208_131, counter: 3, replica: "b8b09e07-2497-46cf-ab52-c3157ab9c366")

  /// A batch with every kind of value, negative and extreme numbers, unicode and a repeated
  /// replica and field names (written once, then referenced).
  static var batch: ChangeBatch {
    let values: [String: FieldValue] = [
      "null": .null, "text": .text("Crème brûlée — 🍮"), "empty": .text(""), "integer": .integer(-42), "big": .integer(.max),
      "small": .integer(.min),
      "real": .real(-0.125), "bool": .bool(true), "off": .bool(false),
      "timestamp": .timestamp(Date(timeIntervalSince1970: 1_734_048_000.5)),
      "reference": .reference(UUID(uuidString: "8CA1D7AE-37CA-5E82-8119-0AFB3572C3A3")!), "textList": .textList(["a", "Crème", "a"]),
      "referenceList": .referenceList([UUID(), UUID()]), RecordChange.deletedField: .timestamp(Fixtures.epoch),
    ]
    let first = RecordChange(
      kind: .recipe, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch.addingTimeInterval(0.001), ownerID: "local",
      sharingScope: .shared, fields: values.mapValues { StampedValue(value: $0, stamp: stamp) }
    )
    let second = RecordChange(
      kind: .category, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: ["displayName": StampedValue(value: .text("text"), stamp: Stamp(time: -5, counter: .max, replica: stamp.replica))]
    )
    return ChangeBatch(id: "\(stamp.replica):1-2", replica: stamp.replica, schemaVersion: 3, changes: [first, second])
  }

  @Test func aBatchReadsBackAsWritten() throws {
    let batch = Self.batch
    let bytes = ChangeBatchCoding.encode(batch)
    #expect(try ChangeBatchCoding.decode(bytes) == batch)
    #expect(bytes.count < (try JSONEncoder().encode(batch)).count / 2)
    #expect(ChangeBatchCoding.encode(batch) == bytes, "the same batch encodes to the same bytes")
  }

  @Test func anEmptyBatchReadsBack() throws {
    let batch = ChangeBatch(id: "r:1-1", replica: "r", schemaVersion: 2, changes: [])
    #expect(try ChangeBatchCoding.decode(ChangeBatchCoding.encode(batch)) == batch)
  }

  @Test func batchesStoredAsJSONByEarlierVersionsStillRead() throws {
    let batch = Self.batch
    #expect(try ChangeBatchCoding.decode(JSONEncoder().encode(batch)) == batch)
  }

  @Test func damagedBytesAreAnErrorNamingTheProblem() throws {
    let bytes = ChangeBatchCoding.encode(Self.batch)
    // Every truncation is refused, never read as a shorter batch.
    for length in stride(from: 0, to: bytes.count, by: 7) {
      #expect(throws: ChangeBatchCoding.DecodingError.self) { try ChangeBatchCoding.decode(bytes.prefix(length)) }
    }
    #expect(throws: ChangeBatchCoding.DecodingError.self) { try ChangeBatchCoding.decode(bytes + [0]) }
    #expect(throws: ChangeBatchCoding.DecodingError.self) { try ChangeBatchCoding.decode(Data("garbage".utf8)) }
    let unknownKind = ChangeBatchCoding.encode(
      ChangeBatch(
        id: "r:1-1", replica: "r", schemaVersion: 3,
        changes: [
          RecordChange(
            kind: .tag, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "o", sharingScope: .private, fields: [:])
        ]))
    // "tag" is the first string after the batch's own: rename it in place to "tap".
    var renamed = unknownKind
    let index = try #require(renamed.firstRange(of: Data("tag".utf8)))
    renamed[index.upperBound - 1] = UInt8(ascii: "p")
    let error = try #require(throws: ChangeBatchCoding.DecodingError.self) { try ChangeBatchCoding.decode(renamed) }
    #expect(error.description.contains("unknown kind 'tap'"))
  }
}
