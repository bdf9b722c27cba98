import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Sync
import SyncServer
import SyncWire
import Testing

@Suite struct BadInputTests {
  @Test func aBodyOverTheLimitIsRefusedAndNothingIsWritten() async throws {
    let fixture = ServerFixture(maxBatchBytes: 512)
    let phone = try await fixture.token()
    try await fixture.test { client in
      let big = batchBytes(id: "a:" + String(repeating: "x", count: 150), replica: "a") + Data(repeating: 0, count: 600)
      let response = try await client.push(big, token: phone, deviceSequence: 1)
      #expect(response.status == .contentTooLarge)
      #expect(response.refusal?.message == "the body is larger than this server's limit of 512 bytes")
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 0)
      // Just under the limit is taken.
      #expect(try await client.push(batchBytes(id: "a:1", replica: "a"), token: phone, deviceSequence: 1).status == .created)
    }
  }

  @Test(arguments: [nil, "application/json", "text/plain", "application/octet-stream"] as [String?])
  func aPushInAnotherContentTypeIsRefused(contentType: String?) async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      let response = try await client.push(batchBytes(id: "a:1", replica: "a"), token: phone, deviceSequence: 1, contentType: contentType)
      #expect(response.status == .unsupportedMediaType)
      #expect(response.refusal?.message.hasPrefix("the body must be 'application/vnd.forager.batch'") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 0)
    }
  }

  @Test(
    arguments: [
      (Data(), "the body is empty"),
      (Data("{\"id\":\"x\"}".utf8), "magic bytes"),
      (Data([0x00, 0x46, 0x42, 0x01, 0x40]), "truncated"),
      (batchBytes(id: "a:1", replica: "a").dropLast(3), "truncated"),
      (batchBytes(id: "a:1", replica: "a", kind: "pantries"), "unknown kind 'pantries'"),
      (batchBytes(id: "a:1", replica: "a", schemaVersion: 0), "schema version 0 is below 1"),
    ] as [(Data, String)])
  func anUndecodableBatchIsRefusedWithItsReason(bytes: Data, reason: String) async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      let response = try await client.push(bytes, token: phone, deviceSequence: 1)
      #expect(response.status == .unprocessableContent)
      #expect(response.refusal?.code == "batch-undecodable")
      #expect(response.refusal?.message.contains(reason) == true, "\(response.refusal?.message ?? "")")
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 0)
    }
  }

  @Test func aBatchFromANewerSchemaIsStoredAndServedByteForByte() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let newer = batchBytes(id: "a:1", replica: "a", schemaVersion: 7, kind: "pantries")
    #expect(throws: ChangeBatchCoding.DecodingError.self) { try ChangeBatchCoding.decode(newer) }
    try await fixture.test { (client) async throws -> Void in
      let pushed = try await client.push(newer, token: phone, deviceSequence: 1)
      #expect(pushed.status == .created)
      let page = try await client.pull(token: phone).decode(PullPage.self)
      #expect(page.entries.first?.batch == newer)
    }
  }

  @Test(
    arguments: [(nil, "device-sequence-missing"), ("0", "device-sequence-invalid"), ("two", "device-sequence-invalid")]
      as [(String?, String)])
  func aPushWithoutAUsableDeviceSequenceIsRefused(value: String?, code: String) async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      var fields = headers(token: phone)
      if let value, let name = HTTPField.Name(Wire.deviceSequenceHeader) { fields[name] = value }
      let response = try await client.execute(
        uri: Wire.Path.batches, method: .post, headers: fields, body: ByteBuffer(bytes: batchBytes(id: "a:1")))
      #expect(response.status == .badRequest)
      #expect(response.refusal?.code == code)
    }
  }

  @Test(arguments: [
    ("not json", "it is not valid JSON"),
    ("{\"name\":\"phone\",\"schemaVersion\":3}", "'replicaID' is missing"),
    ("{\"replicaID\":\"a\",\"name\":\"\",\"schemaVersion\":3}", "the device name is empty"),
    ("{\"replicaID\":\"a\",\"name\":\"pho\\u0007ne\",\"schemaVersion\":3}", "control character"),
    ("{\"replicaID\":\"a\",\"name\":\"phone\",\"schemaVersion\":0}", "schema version 0"),
  ])
  func aBadRegistrationIsRefusedAndTheRegistryIsUnchanged(body: String, reason: String) async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      let response = try await client.execute(
        uri: Wire.Path.ownDevice, method: .put, headers: headers(token: phone, contentType: Wire.jsonMediaType),
        body: ByteBuffer(string: body))
      #expect(response.status == .badRequest)
      #expect(response.refusal?.message.contains(reason) == true, "\(response.refusal?.message ?? "")")
      let devices = try await client.get(Wire.Path.devices, token: phone).decode(DeviceList.self)
      #expect(devices.devices.map(\.lastSeen) == [nil])
    }
  }

  @Test func namesWithQuotesAndSQLAreStoredAsGiven() async throws {
    let fixture = ServerFixture()
    let household = "O'Brien\"; DROP TABLE batches; --"
    let device = "Robert'); DELETE FROM tokens WHERE ('1'='1"
    let token = try await fixture.token(household, device: device)
    try await fixture.test { client in
      let registration = try WireCoding.encoder().encode(DeviceRegistration(replicaID: "r'--", name: "Bobby \"Tables\"", schemaVersion: 3))
      let registered = try await client.execute(
        uri: Wire.Path.ownDevice, method: .put, headers: headers(token: token, contentType: Wire.jsonMediaType),
        body: ByteBuffer(bytes: registration))
      #expect(registered.status == .ok)
      let session = try await client.get(Wire.Path.session, token: token).decode(SessionInfo.self)
      #expect(session.household == household)
      #expect(session.device == device)
      #expect(try await fixture.admin.devices(household: household).map(\.name) == ["Bobby \"Tables\""])
    }
  }

  @Test(arguments: ["", " Smith", "Smith\n", String(repeating: "x", count: 101)])
  func anUnusableHouseholdNameIsRefused(name: String) async throws {
    let fixture = ServerFixture()
    await #expect(throws: ServerError.self) { try await fixture.admin.addHousehold(name) }
    #expect(await fixture.storage.household(named: name) == nil)
  }

  @Test func aSecondHouseholdOfOneNameAndATokenForAnUnknownHouseholdAreRefused() async throws {
    let fixture = ServerFixture()
    _ = try await fixture.admin.addHousehold("Smith")
    await #expect(throws: ServerError.householdExists("Smith")) { try await fixture.admin.addHousehold("Smith") }
    await #expect(throws: ServerError.noHousehold("Jones")) { try await fixture.admin.issueToken(household: "Jones", device: "phone") }
  }
}
