import Foundation
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// The household quota decided inside the household's critical section, written once and run
/// on both backends: PostgreSQL's one-round-trip append leaves a push past the quota to
/// PushRules, which refuses it; a retry is answered; the day's count starts over; a
/// household's own quota overrides the server's.
@Suite struct HouseholdQuotaRulesTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func check(_ storage: any HouseholdStorage) async throws {
    let phone = try #require(try await household(storage, devices: ["phone"])["phone"])
    let size = batch("a:1", replica: "a").bytes.count
    var quota = HeldBatchQuota()
    quota.household = HouseholdQuota(storedBytes: Int64(3 * size), dailyPushBytes: Int64(2 * size))
    for number in 1...2 {
      #expect(
        try await storage.append(batch("a:\(number)", replica: "a"), from: phone, deviceSequence: Int64(number), quota: quota, now: now)
          .stored)
    }
    // Past the day's quota: refused, nothing written; a retry is answered.
    await #expect(
      throws: ServerError.householdQuotaDaily(household: "Smith", pushed: Int64(2 * size), adding: Int64(size), limit: Int64(2 * size))
    ) {
      try await storage.append(batch("a:3", replica: "a"), from: phone, deviceSequence: 3, quota: quota, now: now)
    }
    #expect(try await storage.latestSequence(of: phone.householdID) == 2)
    #expect(try await !storage.append(batch("a:2", replica: "a"), from: phone, deviceSequence: 2, quota: quota, now: now).stored)
    let usage = try await storage.householdUsage(of: phone.householdID, now: now)
    #expect(usage.storedBytes == Int64(2 * size) && usage.pushedBytes == Int64(2 * size))
    // The next UTC day counts from zero; the stored quota still holds.
    let tomorrow = now.addingTimeInterval(86_400)
    #expect(try await storage.householdUsage(of: phone.householdID, now: tomorrow).pushedBytes == 0)
    #expect(try await storage.append(batch("a:3", replica: "a"), from: phone, deviceSequence: 3, quota: quota, now: tomorrow).stored)
    await #expect(
      throws: ServerError.householdQuotaStored(household: "Smith", stored: Int64(3 * size), adding: Int64(size), limit: Int64(3 * size))
    ) {
      try await storage.append(batch("a:4", replica: "a"), from: phone, deviceSequence: 4, quota: quota, now: tomorrow)
    }
    // The household's own quota overrides the server's.
    try await storage.setHouseholdQuota(HouseholdQuotaSetting(storedBytes: Int64(4 * size)), of: phone.householdID)
    #expect(try await storage.append(batch("a:4", replica: "a"), from: phone, deviceSequence: 4, quota: quota, now: tomorrow).stored)
    let own = try await storage.householdUsage(of: phone.householdID, now: tomorrow)
    #expect(own.storedBytes == Int64(4 * size) && own.pushedBytes == Int64(2 * size))
    #expect(own.setting == HouseholdQuotaSetting(storedBytes: Int64(4 * size)))
  }

  @Test func theHouseholdQuotaInMemory() async throws { try await Self.check(MemoryHouseholdStorage()) }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func theHouseholdQuotaOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.check(storage) }
  }
}
