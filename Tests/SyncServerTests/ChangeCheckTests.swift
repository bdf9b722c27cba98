import Foundation
import HTTPTypes
import HummingbirdTesting
import Model
import Sync
import SyncServer
import SyncWire
import Testing

/// The server checks every change of a batch of a schema it reads with the rules every
/// device applies on pull (`ChangeRules`): a refusal is 422 with the rule's code and a
/// message naming the batch, the change's place, its record and field; nothing is written.
@Suite struct ChangeCheckTests {
  static let id = UUID(uuidString: "00000000-0000-4000-8000-0000000000c1") ?? UUID()

  /// A batch of replica `a` with one category change built from `fields`, created at `createdAt`.
  static func batch(createdAt: Date = Date(timeIntervalSince1970: 1_700_000_000), _ fields: [String: StampedValue]) -> Data {
    let change = RecordChange(
      kind: .category, id: id, createdAt: createdAt, updatedAt: createdAt, ownerID: "local", sharingScope: .private, fields: fields)
    return ChangeBatchCoding.encode(ChangeBatch(id: "a:1-1", replica: "a", schemaVersion: 3, changes: [change]))
  }

  static func stamp(_ time: Int64, counter: Int32 = 0, replica: String = "a") -> Stamp {
    Stamp(time: time, counter: counter, replica: replica)
  }

  /// The test clock's time (1.8e12 ms) in milliseconds.
  static let now: Int64 = 1_800_000_000_000

  static func name(_ text: String, _ stamp: Stamp = stamp(now - 1_000)) -> [String: StampedValue] {
    [
      "displayName": StampedValue(value: .text(text), stamp: stamp),
      "normalizedName": StampedValue(value: .text(text.lowercased()), stamp: stamp),
    ]
  }

  @Test(
    arguments: [
      (batch(createdAt: Date(timeIntervalSince1970: .nan), name("Produce")), "change-invalid", "field 'createdAt' is not a finite date"),
      (batch(createdAt: Date(timeIntervalSince1970: 1e12), name("Produce")), "change-invalid", "field 'createdAt' is outside the years"),
      (batch(name(String(repeating: "a", count: 300_000))), "change-invalid", "field 'displayName' is 300000 bytes long"),
      (batch(name("Pro\u{7}duce")), "change-invalid", "control character (U+0007)"),
      (batch(name("Pro\u{2066}duce")), "change-invalid", "bidi override (U+2066)"),
      (batch(["sortOrder": StampedValue(value: .integer(Int64.max), stamp: stamp(now))]), "change-invalid", "field 'sortOrder'"),
      (batch(["shelf": StampedValue(value: .text("x"), stamp: stamp(now))]), "change-invalid", "'shelf' is not a field of category"),
      (batch(name("Produce", stamp(.max, counter: .max))), "stamp-invalid", "counter"),
      (batch(name("Produce", stamp(.max))), "clock-ahead", "set this device's clock right"),
      (batch(name("Produce", stamp(now + 3_600_000))), "clock-ahead", "3600 s ahead"),
      (batch(name("Produce", stamp(now, replica: "b"))), "stamp-invalid", "replica 'b'"),
      (batch(name("Produce", stamp(.min))), "stamp-invalid", "before the earliest"),
      (batch(name("Produce", Stamp(time: 5, counter: 0, replica: ""))), "stamp-invalid", "not a migration's"),
    ] as [(Data, String, String)])
  func aChangeThatBreaksTheRulesIsRefusedByName(bytes: Data, code: String, message: String) async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      let response = try await client.push(bytes, token: phone, deviceSequence: 1)
      #expect(response.status == .unprocessableContent)
      #expect(response.refusal?.code == code)
      let text = response.refusal?.message ?? ""
      #expect(text.contains(message), "\(text)")
      #expect(text.contains("batch 'a:1-1', change 1: category 00000000-0000-4000-8000-0000000000c1"), "\(text)")
      #expect(text.utf8.count < 1_000)
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 0)
    }
  }

  /// A key that is not the key of its fields ("Produce" keyed "dairy") is refused at the
  /// door in a batch of a schema that keys every unique kind from its fields.
  @Test func aKeyThatIsNotTheKeyOfItsFieldsIsRefused() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let stamp = Self.stamp(Self.now - 1_000)
    let impostor = RecordChange(
      kind: .category, id: Self.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000),
      updatedAt: Date(timeIntervalSince1970: 1_700_000_000), ownerID: "local", sharingScope: .private,
      fields: [
        "displayName": StampedValue(value: .text("Produce"), stamp: stamp),
        "normalizedName": StampedValue(value: .text("dairy"), stamp: stamp),
      ])
    let bytes = ChangeBatchCoding.encode(
      ChangeBatch(id: "a:1-1", replica: "a", schemaVersion: ChangeBatchCoding.schemaVersion, changes: [impostor]))
    try await fixture.test { client in
      let response = try await client.push(bytes, token: phone, deviceSequence: 1)
      #expect(response.status == .unprocessableContent)
      #expect(response.refusal?.code == "change-invalid")
      #expect(response.refusal?.message.contains("field 'normalizedName' is 'dairy', but its fields give the key 'produce'") == true)
    }
  }

  @Test func stampsWithinTheSkewTheCreationBandAndAMigrationsAreTaken() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let within = Self.name("Produce", Self.stamp(Self.now + 5_000))
    let creation = Self.name("Dairy", Self.stamp(Self.now - (1 << 50)))
    let migration = Self.name("Bakery", Stamp(time: Int64.min + 1, counter: 0, replica: ""))
    try await fixture.test { client in
      for (number, fields) in [within, creation, migration].enumerated() {
        let change = RecordChange(
          kind: .category, id: UUID(), createdAt: Date(timeIntervalSince1970: 1_700_000_000),
          updatedAt: Date(timeIntervalSince1970: 1_700_000_000), ownerID: "local", sharingScope: .private, fields: fields)
        let bytes = ChangeBatchCoding.encode(ChangeBatch(id: "a:\(number + 1)", replica: "a", schemaVersion: 3, changes: [change]))
        let response = try await client.push(bytes, token: phone, deviceSequence: Int64(number + 1))
        #expect(response.status == .created, "\(number): \(response.refusal?.message ?? "")")
      }
    }
  }

  @Test func aBatchOfANewerSchemaIsNotReadSoItsContentIsNotJudged() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let change = RecordChange(
      kind: .category, id: Self.id, createdAt: Date(timeIntervalSince1970: .nan), updatedAt: Date(timeIntervalSince1970: 0),
      ownerID: "local", sharingScope: .private, fields: Self.name("Produce", Self.stamp(.max)))
    let bytes = ChangeBatchCoding.encode(ChangeBatch(id: "a:1-1", replica: "a", schemaVersion: 7, changes: [change]))
    try await fixture.test { client in
      let response = try await client.push(bytes, token: phone, deviceSequence: 1)
      #expect(response.status == .created)
    }
  }
}
