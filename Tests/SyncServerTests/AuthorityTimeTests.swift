import Foundation
import HTTPTypes
import HummingbirdTesting
import SyncServer
import SyncWire
import Testing

/// The server is its households' time authority: every answer, a refusal as much as a
/// success, carries its clock in whole milliseconds (`Forager-Time`), the clock its door
/// checks pushed stamps with.
@Suite struct AuthorityTimeTests {
  @Test func everyAnswerCarriesTheServersClock() async throws {
    let fixture = ServerFixture()
    let token = try await fixture.token()
    let expected = String(Int64(fixture.clock.now.timeIntervalSince1970 * 1000))
    try await fixture.test { client in
      var authorized = HTTPFields()
      authorized[.authorization] = "Bearer \(token)"
      let answers = [
        try await client.execute(uri: Wire.Path.health, method: .get),
        try await client.execute(uri: Wire.Path.session, method: .get, headers: authorized),
        try await client.execute(uri: Wire.Path.session, method: .get),  // 401
        try await client.execute(uri: Wire.Path.batches, method: .post, headers: authorized),  // 415
      ]
      #expect(answers.map(\.status.code) == [200, 200, 401, 415])
      for answer in answers {
        #expect(answer.headers[HTTPField.Name(Wire.timeHeader)!] == expected, "\(answer.status)")
      }
      fixture.clock.advance(by: 1.5)
      let later = try await client.execute(uri: Wire.Path.health, method: .get)
      #expect(later.headers[HTTPField.Name(Wire.timeHeader)!] == String(Int64(fixture.clock.now.timeIntervalSince1970 * 1000)))
    }
  }
}
