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

  /// The bytes themselves are a format: stored states and cloud batches are read by later
  /// versions, and a merge batch's id is a hash of its encoding. A fixed batch (ids fixed,
  /// a replica and field names repeated) encodes to these bytes.
  @Test func aFixedBatchEncodesToTheSameBytes() {
    let replica = "b8b09e07-2497-46cf-ab52-c3157ab9c366"
    let stamp = Stamp(time: 1_778_307_208_131, counter: 3, replica: replica)
    let change = { (id: String, kind: EntityKind, name: String) in
      RecordChange(
        kind: kind, id: UUID(uuidString: id)!, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local",
        sharingScope: .private,
        fields: [
          "displayName": StampedValue(value: .text(name), stamp: stamp),
          "normalizedName": StampedValue(value: .text(name.lowercased()), stamp: stamp),
          "sortOrder": StampedValue(value: .integer(2), stamp: Stamp(time: 5, counter: 0, replica: "")),
        ]
      )
    }
    let batch = ChangeBatch(
      id: "\(replica):1-2", replica: replica, schemaVersion: 3,
      changes: [
        change("8CA1D7AE-37CA-5E82-8119-0AFB3572C3A3", .category, "Produce"),
        change("0F1D7AE2-37CA-5E82-8119-0AFB3572C3A4", .tag, "Quick"),
      ]
    )
    let hex = ChangeBatchCoding.encode(batch).map { String(format: "%02x", $0) }.joined()
    let expected =
      "004642015062386230396530372d323439372d343663662d616235322d6333313537616239633336363a312d32486238"
      + "6230396530372d323439372d343663662d616235322d63333135376162396333363606021063617465676f72798ca1d7"
      + "ae37ca5e8281190afb3572c3a368cd0f0084d7c74168cd0f0084d7c7410a6c6f63616c0e707269766174650316646973"
      + "706c61794e616d65010e50726f6475636586cff4b5c16706031c6e6f726d616c697a65644e616d65010e70726f647563"
      + "6586cff4b5c167060312736f72744f7264657202040a0000067461670f1d7ae237ca5e8281190afb3572c3a468cd0f00"
      + "84d7c74168cd0f0084d7c7410709030b010a517569636b86cff4b5c16706030f010a717569636b86cff4b5c167060313"
      + "02040a0015"
    #expect(hex == expected)
  }

  /// A batch with more distinct strings than the writer compares one by one (each change
  /// its own replica and name, all sharing field names) reads back, and each repeat is
  /// written as a reference: the bytes grow by less than the repeated text.
  @Test func aBatchOfManyStringsReadsBackWithRepeatsReferenced() throws {
    let changes = (0..<100).map { index in
      RecordChange(
        kind: .tag, id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!, createdAt: Fixtures.epoch,
        updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
        fields: [
          "displayName": StampedValue(
            value: .text("Tag \(index)"), stamp: Stamp(time: Int64(index), counter: 0, replica: "replica-\(index % 40)")),
          "normalizedName": StampedValue(
            value: .text("tag \(index)"), stamp: Stamp(time: Int64(index), counter: 0, replica: "replica-\(index % 40)")),
        ]
      )
    }
    let batch = ChangeBatch(id: "r:1-100", replica: "r", schemaVersion: 3, changes: changes)
    let bytes = ChangeBatchCoding.encode(batch)
    #expect(try ChangeBatchCoding.decode(bytes) == batch)
    // Per change: 16 id bytes, two dates, two names' text, two stamps; "displayName",
    // "normalizedName", "local", "private", "tag" and the 40 replicas as references.
    #expect(bytes.count < 100 * 80)
  }

  /// A text is written once and referenced after when it repeats byte for byte, never
  /// when it is only canonically equivalent: both forms read back as written, whether the
  /// string table is searched (a few strings) or hashed (many).
  @Test(arguments: [0, 40])
  func textsInTwoUnicodeFormsReadBackAsWritten(padding: Int) throws {
    let forms = ["Cr\u{E8}me", "Cre\u{300}me", "a\u{323}\u{302}", "a\u{302}\u{323}"]
    var fields: [String: StampedValue] = [:]
    for index in 0..<padding { fields["f\(index)"] = StampedValue(value: .text("v\(index)"), stamp: Self.stamp) }
    for (index, form) in forms.enumerated() { fields["form\(index)"] = StampedValue(value: .text(form), stamp: Self.stamp) }
    fields["list"] = StampedValue(value: .textList(forms.reversed()), stamp: Self.stamp)
    let change = RecordChange(
      kind: .recipe, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "zoe\u{308}", sharingScope: .private,
      fields: fields)
    let other = RecordChange(
      kind: .recipe, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "zo\u{EB}", sharingScope: .private,
      fields: [:])
    let batch = ChangeBatch(id: "r:1-2", replica: "r", schemaVersion: 5, changes: [change, other])
    let decoded = try ChangeBatchCoding.decode(ChangeBatchCoding.encode(batch))
    #expect(decoded == batch)  // FieldValue compares texts by their bytes
    #expect(decoded.changes.map { Array($0.ownerID.utf8) } == [Array("zoe\u{308}".utf8), Array("zo\u{EB}".utf8)])
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
