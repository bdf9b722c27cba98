import Foundation
import HTTPTypes
import HummingbirdTesting
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// What an administrative call cannot leave behind: a misspelled device is an error, not
/// "0 revoked", and a token whose secret could not be delivered is never stored.
struct AdministrationTests {
  struct DeliveryFailed: Error {}

  @Test func revokingTheTokensOfADeviceTheHouseholdDoesNotHaveIsAnErrorNamingIt() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token("Smith", device: "phone")
    await #expect(throws: ServerError.noDevice("phnoe", household: "Smith")) {
      try await fixture.admin.revokeTokens(household: "Smith", device: "phnoe")
    }
    await #expect(throws: ServerError.noHousehold("Jones")) { try await fixture.admin.revokeTokens(household: "Jones", device: "phone") }
    let status = try await fixture.test { client in try await client.get(Wire.Path.session, token: phone).status }
    #expect(status == .ok)
    #expect(try await fixture.admin.revokeTokens(household: "Smith", device: "phone") == 1)
    #expect(try await fixture.admin.revokeTokens(household: "Smith", device: "phone") == 0)
  }

  @Test func aTokenWhoseDeliveryFailsIsNeverStoredNorItsDeviceAdded() async throws {
    let fixture = ServerFixture()
    _ = try await fixture.admin.addHousehold("Smith")
    let household = try #require(await fixture.storage.household(named: "Smith"))
    let delivered = Delivered()
    await #expect(throws: DeliveryFailed.self) {
      try await fixture.admin.issueToken(household: "Smith", device: "tablet") { issued in
        delivered.set(issued.token.secret)
        throw DeliveryFailed()
      }
    }
    let secret = try #require(delivered.secret)
    #expect(await fixture.storage.credential(forTokenHash: DeviceToken.hash(secret)) == nil)
    #expect(await fixture.storage.devices(of: household.id).isEmpty)
    // Delivered, then stored: the token works.
    let issued = try await fixture.admin.issueToken(household: "Smith", device: "tablet") { delivered.set($0.token.secret) }
    #expect(delivered.secret == issued.token.secret)
    let status = try await fixture.test { client in try await client.get(Wire.Path.session, token: issued.token.secret).status }
    #expect(status == .ok)
  }
}

/// The secret a delivery was handed.
final class Delivered: @unchecked Sendable {
  private let lock = NSLock()
  private var value: String?
  var secret: String? { lock.withLock { value } }
  func set(_ secret: String) { lock.withLock { value = secret } }
}
