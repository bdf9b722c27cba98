import Foundation
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncWire
import Testing

/// The one-round-trip paths: `forager_append_next` appends only the plain push and writes
/// nothing for any other (which then goes through PushRules), and a pull's page and newest
/// sequence come from one query.
@Suite struct OneRoundTripTests {
  /// What `forager_append_next` answers for a push, straight from SQL.
  static func appendNext(
    _ client: PostgresClient, _ credential: Credential, _ batch: IncomingBatch, deviceSequence: Int64,
    quota: HouseholdQuota = HouseholdQuota()
  ) async throws -> Int64? {
    let rows = try await client.query(
      """
      SELECT forager_append_next(\(credential.householdID), \(credential.deviceID), \(batch.id), \(deviceSequence),
        \(batch.replica), \(Int32(3)), \(batch.bytes), \(Date(timeIntervalSince1970: 1_800_000_000)), \(quota.storedBytes),
        \(quota.dailyPushBytes))
      """)
    var answer: Int64?
    for try await value in rows.decode(Int64?.self) { answer = value }
    return answer
  }

  /// The household's log and the devices' states, to show a refused call wrote nothing.
  static func snapshot(_ client: PostgresClient) async throws -> [String] {
    var lines: [String] = []
    let rows = try await client.query(
      """
      SELECT 'batch ' || sequence || ' ' || batch_id || ' ' || device_sequence FROM batches
      UNION ALL SELECT 'device ' || name || ' ' || COALESCE(replica_id, '-') || ' ' || last_device_sequence FROM devices
      UNION ALL SELECT 'household ' || name || ' ' || last_sequence FROM households
      ORDER BY 1
      """)
    for try await line in rows.decode(String.self) { lines.append(line) }
    return lines
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func theOneRoundTripAppendTakesOnlyThePlainPush() async throws {
    try await withPostgres { client, storage, _ in
      let devices = try await household(storage, devices: ["phone", "laptop"])
      let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"])
      // The plain push: appended, the device bound to its replica.
      #expect(try await Self.appendNext(client, phone, batch("a:1", replica: "a"), deviceSequence: 1) == 1)
      #expect(try await storage.deviceState(of: phone.deviceID) == DeviceState(replicaID: "a", lastDeviceSequence: 1))
      let before = try await Self.snapshot(client)
      // A retry, a gap, a reused number, another device's batch id, another replica, a push past
      // the household's quota (stored, or pushed today): NULL, nothing written.
      #expect(try await Self.appendNext(client, phone, batch("a:1", replica: "a"), deviceSequence: 1) == nil)
      #expect(try await Self.appendNext(client, phone, batch("a:3", replica: "a"), deviceSequence: 3) == nil)
      #expect(try await Self.appendNext(client, phone, batch("a:0", replica: "a"), deviceSequence: 1) == nil)
      #expect(try await Self.appendNext(client, laptop, batch("a:1", replica: "b"), deviceSequence: 1) == nil)
      #expect(try await Self.appendNext(client, phone, batch("z:2", replica: "z"), deviceSequence: 2) == nil)
      let size = Int64(batch("a:2", replica: "a").bytes.count)
      for tight in [
        HouseholdQuota(storedBytes: 2 * size - 1, dailyPushBytes: 1 << 30),
        HouseholdQuota(storedBytes: 1 << 30, dailyPushBytes: 2 * size - 1),
      ] {
        #expect(try await Self.appendNext(client, phone, batch("a:2", replica: "a"), deviceSequence: 2, quota: tight) == nil)
      }
      #expect(try await Self.snapshot(client) == before)
      // The next plain push of each device goes through.
      #expect(try await Self.appendNext(client, phone, batch("a:2", replica: "a"), deviceSequence: 2) == 2)
      #expect(try await Self.appendNext(client, laptop, batch("b:1", replica: "b"), deviceSequence: 1) == 3)
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aPageCarriesTheNewestSequenceEvenWhenEmpty() async throws {
    try await withPostgres { _, storage, _ in
      let phone = try #require(try await household(storage, devices: ["phone"])["phone"])
      let now = Date(timeIntervalSince1970: 1_800_000_000)
      #expect(try await storage.page(of: phone.householdID, after: 0, limit: 10) == LogPage(entries: [], latestSequence: 0))
      for number in 1...3 {
        _ = try await storage.append(batch("a:\(number)", replica: "a"), from: phone, deviceSequence: Int64(number), now: now)
      }
      let first = try await storage.page(of: phone.householdID, after: 0, limit: 2)
      #expect(first.entries.map(\.sequence) == [1, 2])
      #expect(first.entries.map(\.batch) == [batch("a:1", replica: "a").bytes, batch("a:2", replica: "a").bytes])
      #expect(first.latestSequence == 3)
      #expect(try await storage.page(of: phone.householdID, after: 3, limit: 2) == LogPage(entries: [], latestSequence: 3))
    }
  }
}
