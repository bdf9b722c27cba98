import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SyncServer
import SyncWire
import Testing

@Suite struct AuthenticationTests {
  @Test(
    arguments: [
      (nil, "token-missing"),
      ("Basic dXNlcjpwYXNz", "token-malformed"),
      ("Bearer", "token-malformed"),
      ("Bearer not-a-forager-token", "token-malformed"),
      ("Bearer fgr1_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "token-unknown"),
    ] as [(String?, String)])
  func aRequestWithoutAValidTokenIsRefused(authorization: String?, code: String) async throws {
    let fixture = ServerFixture()
    _ = try await fixture.token()
    try await fixture.test { client in
      var fields = HTTPFields()
      if let authorization { fields[.authorization] = authorization }
      for path in [Wire.Path.session, Wire.Path.batches, Wire.Path.devices] {
        let response = try await client.execute(uri: path, method: .get, headers: fields)
        #expect(response.status == .unauthorized, "\(path)")
        #expect(response.refusal?.code == code)
        #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"forager\"")
      }
    }
  }

  @Test func aForgedTokenWithAKnownTokensShapeIsRefusedAndWritesNothing() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    // One character changed: the hash no longer matches anything stored.
    let forged = String(phone.dropLast()) + (phone.hasSuffix("A") ? "B" : "A")
    try await fixture.test { client in
      let response = try await client.push(batchBytes(id: "x:1", replica: "x"), token: forged, deviceSequence: 1)
      #expect(response.status == .unauthorized)
      #expect(response.refusal?.code == "token-unknown")
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 0)
    }
  }

  @Test func anExpiredTokenIsRefusedNamingWhenItExpired() async throws {
    let fixture = ServerFixture()
    _ = try await fixture.admin.addHousehold("Smith")
    let issued = try await fixture.admin.issueToken(household: "Smith", device: "phone", lifetime: 3_600)
    try await fixture.test { client in
      #expect(try await client.get(Wire.Path.session, token: issued.token.secret).status == .ok)
      fixture.clock.advance(by: 3_600)
      let response = try await client.get(Wire.Path.session, token: issued.token.secret)
      #expect(response.status == .unauthorized)
      #expect(response.refusal?.code == "token-expired")
      #expect(response.refusal?.message.contains(issued.token.id) == true)
    }
  }

  @Test func aRevokedTokenIsRefusedAndTheDevicesOtherTokensToo() async throws {
    let fixture = ServerFixture()
    _ = try await fixture.admin.addHousehold("Smith")
    let first = try await fixture.admin.issueToken(household: "Smith", device: "phone")
    let second = try await fixture.admin.issueToken(household: "Smith", device: "phone")
    let laptop = try await fixture.admin.issueToken(household: "Smith", device: "laptop")
    try await fixture.test { client in
      #expect(try await fixture.admin.revokeToken(id: first.token.id))
      #expect(try await fixture.admin.revokeToken(id: first.token.id) == false)
      let revoked = try await client.get(Wire.Path.session, token: first.token.secret)
      #expect(revoked.status == .unauthorized)
      #expect(revoked.refusal?.code == "token-revoked")
      #expect(try await client.get(Wire.Path.session, token: second.token.secret).status == .ok)
      #expect(try await fixture.admin.revokeTokens(household: "Smith", device: "phone") == 1)
      #expect(try await client.get(Wire.Path.session, token: second.token.secret).status == .unauthorized)
      #expect(try await client.get(Wire.Path.session, token: laptop.token.secret).status == .ok)
    }
  }

  @Test func aHouseholdsTokenNeitherReadsNorWritesAnotherHousehold() async throws {
    let fixture = ServerFixture()
    let smith = try await fixture.token("Smith", device: "phone")
    let jones = try await fixture.token("Jones", device: "phone")
    try await fixture.test { client in
      _ = try await client.push(batchBytes(id: "s:1", replica: "s"), token: smith, deviceSequence: 1)
      _ = try await client.push(batchBytes(id: "j:1", replica: "j"), token: jones, deviceSequence: 1)
      _ = try await client.push(batchBytes(id: "j:2", replica: "j"), token: jones, deviceSequence: 2)
      let smiths = try await client.pull(token: smith).decode(PullPage.self)
      let joneses = try await client.pull(token: jones).decode(PullPage.self)
      #expect(smiths.entries.map(\.batch) == [batchBytes(id: "s:1", replica: "s")])
      #expect(smiths.latestSequence == 1)
      #expect(joneses.entries.map(\.batch) == [batchBytes(id: "j:1", replica: "j"), batchBytes(id: "j:2", replica: "j")])
      // A cursor from Jones's log read with Smith's token still reads Smith's log only.
      let beyond = try await client.pull(token: smith, cursor: PullCursor(after: 0).encoded).decode(PullPage.self)
      #expect(beyond.entries.count == 1)
      let session = try await client.get(Wire.Path.session, token: smith).decode(SessionInfo.self)
      #expect(session.household == "Smith")
      let devices = try await client.get(Wire.Path.devices, token: smith).decode(DeviceList.self)
      #expect(devices.devices.map(\.replicaID) == ["s"])
    }
  }

  @Test func tokenSecretsAppearInNoLogAndNoAnswer() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let forged = "fgr1_" + String(repeating: "Z", count: 43)
    let answers = try await fixture.test { client in
      var bodies: [String] = []
      bodies.append(try await client.push(batchBytes(id: "a:1", replica: "a"), token: phone, deviceSequence: 1).text)
      bodies.append(try await client.push(batchBytes(id: "a:9", replica: "a"), token: phone, deviceSequence: 9).text)
      bodies.append(try await client.push(Data("junk".utf8), token: phone, deviceSequence: 2).text)
      bodies.append(try await client.get(Wire.Path.session, token: forged).text)
      bodies.append(try await client.get(Wire.Path.session, token: phone).text)
      return bodies
    }
    let logs = fixture.logs.text
    #expect(logs.contains("POST /v1/batches 201"))  // the log is written, so its silence below means something
    #expect(logs.contains("POST /v1/batches 409"))
    for secret in [phone, forged, String(phone.dropFirst(5).prefix(20))] {
      #expect(!logs.contains(secret))
      #expect(!answers.contains { $0.contains(secret) })
    }
  }
}
