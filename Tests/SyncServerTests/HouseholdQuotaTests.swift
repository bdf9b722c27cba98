import Foundation
import HTTPTypes
import HummingbirdTesting
import Prometheus
import SyncServer
import SyncWire
import Testing

/// A household's quota on stored bytes and on bytes pushed a day (UTC): a push past either is
/// refused with its code and writes nothing, a retry of a stored batch is never refused, other
/// households go on, the day's count starts over at midnight UTC on the server's clock, and an
/// operator sees and raises one household's quota.
@Suite struct HouseholdQuotaTests {
  static let size = batchBytes(id: "a:1", replica: "a").count

  static func fixture(_ registry: PrometheusCollectorRegistry, stored: Int64 = 1 << 30, daily: Int64 = 1 << 30) -> ServerFixture {
    ServerFixture(metricsFactory: PrometheusMetricsFactory(registry: registry)) {
      $0.householdQuota = HouseholdQuota(storedBytes: stored, dailyPushBytes: daily)
    }
  }

  static func metrics(_ registry: PrometheusCollectorRegistry) -> String {
    var text: [UInt8] = []
    registry.emit(into: &text)
    return String(decoding: text, as: UTF8.self)
  }

  @Test func aPushPastTheStoredQuotaIsRefusedAndWritesNothing() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = Self.fixture(registry, stored: Int64(2 * Self.size + Self.size / 2))
    let phone = try await fixture.token()
    let other = try await fixture.token("Jones")
    try await fixture.test { (client) async throws -> Void in
      for number in 1...2 {
        #expect(
          try await client.push(batchBytes(id: "a:\(number)", replica: "a"), token: phone, deviceSequence: Int64(number)).status == .created
        )
      }
      let refused = try await client.push(batchBytes(id: "a:3", replica: "a"), token: phone, deviceSequence: 3)
      #expect(refused.status == .contentTooLarge)
      #expect(refused.refusal?.code == "household-quota-stored")
      #expect(
        refused.refusal?.message.hasPrefix(
          "household 'Smith' holds \(2 * Self.size) bytes of batches; \(Self.size) bytes more would pass its quota of \(2 * Self.size + Self.size / 2) bytes"
        ) == true, "\(refused.refusal?.message ?? "")")
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 2)
      // A retry of a stored batch is answered as always; another household is not held back.
      #expect(try await client.push(batchBytes(id: "a:2", replica: "a"), token: phone, deviceSequence: 2).status == .ok)
      #expect(try await client.push(batchBytes(id: "j:1", replica: "j"), token: other, deviceSequence: 1).status == .created)
    }
    #expect(Self.metrics(registry).contains(#"forager_household_quota_refused_total{quota="stored"} 1"#), "\(Self.metrics(registry))")
  }

  @Test func aPushPastTheDailyQuotaIsRefusedUntilTheNextUTCDay() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = Self.fixture(registry, daily: Int64(2 * Self.size + Self.size / 2))
    let phone = try await fixture.token()
    try await fixture.test { (client) async throws -> Void in
      for number in 1...2 {
        #expect(
          try await client.push(batchBytes(id: "a:\(number)", replica: "a"), token: phone, deviceSequence: Int64(number)).status == .created
        )
      }
      let refused = try await client.push(batchBytes(id: "a:3", replica: "a"), token: phone, deviceSequence: 3)
      #expect(refused.status == .tooManyRequests)
      #expect(refused.refusal?.code == "household-quota-daily")
      #expect(refused.headers[.retryAfter] == nil)
      #expect(refused.refusal?.message.contains("Push again after midnight UTC") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 2)
      fixture.clock.advance(by: 86_400)
      #expect(try await client.push(batchBytes(id: "a:3", replica: "a"), token: phone, deviceSequence: 3).status == .created)
    }
    #expect(Self.metrics(registry).contains(#"forager_household_quota_refused_total{quota="daily"} 1"#))
  }

  @Test func anOperatorSeesAndRaisesOneHouseholdsQuota() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = Self.fixture(registry, stored: Int64(Self.size))
    let phone = try await fixture.token()
    try await fixture.test { (client) async throws -> Void in
      #expect(try await client.push(batchBytes(id: "a:1", replica: "a"), token: phone, deviceSequence: 1).status == .created)
      #expect(try await client.push(batchBytes(id: "a:2", replica: "a"), token: phone, deviceSequence: 2).status == .contentTooLarge)
      let before = try await fixture.admin.quota(household: "Smith")
      #expect(before.usage.storedBytes == Int64(Self.size) && before.usage.pushedBytes == Int64(Self.size))
      #expect(before.quota.storedBytes == Int64(Self.size) && before.usage.setting == HouseholdQuotaSetting())
      let raised = try await fixture.admin.setQuota(household: "Smith", storedBytes: 1 << 20, dailyPushBytes: nil)
      #expect(raised.quota.storedBytes == 1 << 20 && raised.usage.setting == HouseholdQuotaSetting(storedBytes: 1 << 20))
      #expect(try await client.push(batchBytes(id: "a:2", replica: "a"), token: phone, deviceSequence: 2).status == .created)
      // Back to the server's quota.
      let reset = try await fixture.admin.setQuota(household: "Smith", storedBytes: nil, dailyPushBytes: nil, reset: true)
      #expect(reset.quota.storedBytes == Int64(Self.size))
      #expect(try await client.push(batchBytes(id: "a:3", replica: "a"), token: phone, deviceSequence: 3).status == .contentTooLarge)
    }
  }

  @Test func aQuotaOutsideItsRangeIsRefusedAndChangesNothing() async throws {
    let fixture = ServerFixture()
    _ = try await fixture.token()
    await #expect(throws: ServerError.self) {
      try await fixture.admin.setQuota(household: "Smith", storedBytes: 1_000, dailyPushBytes: nil)
    }
    do {
      _ = try await fixture.admin.setQuota(household: "Smith", storedBytes: nil, dailyPushBytes: 1 << 50)
      Issue.record("a daily quota of 2^50 bytes was taken")
    } catch let error as ServerError {
      #expect(error.code == "quota-invalid")
      #expect(error.message.contains("the daily push quota must be from 1048576 to 17592186044416; got 1125899906842624"))
    }
    await #expect(throws: ServerError.noHousehold("Jones")) { try await fixture.admin.quota(household: "Jones") }
    #expect(try await fixture.admin.quota(household: "Smith").usage.setting == HouseholdQuotaSetting())
  }
}
