public import Foundation
import Logging
import PostgresNIO
public import SyncServer

extension PostgresHouseholdStorage {
  /// The household's counters (schema step 8, kept by the `batches_count_bytes` trigger) and
  /// its own quota; bytes pushed on another day than `now`'s count as none.
  public func householdUsage(of household: Int64, now: Date) async throws -> HouseholdUsage {
    try await pool.withConnection { try await Self.householdUsage($0, household, now: now, logger: logger) }
  }

  public func setHouseholdQuota(_ setting: HouseholdQuotaSetting, of household: Int64) async throws {
    try await client.query(
      """
      UPDATE households SET quota_stored_bytes = \(setting.storedBytes), quota_daily_push_bytes = \(setting.dailyPushBytes)
      WHERE id = \(household)
      """, logger: logger)
  }

  static func householdUsage(_ connection: PostgresConnection, _ household: Int64, now: Date, logger: Logger) async throws
    -> HouseholdUsage
  {
    let day = HouseholdQuota.day(of: now)
    let rows = try await connection.query(
      """
      SELECT stored_bytes, CASE WHEN pushed_day = \(day) THEN pushed_bytes ELSE 0 END, quota_stored_bytes, quota_daily_push_bytes
      FROM households WHERE id = \(household)
      """, logger: logger)
    for try await (stored, pushed, storedQuota, dailyQuota) in rows.decode((Int64, Int64, Int64?, Int64?).self) {
      return HouseholdUsage(
        storedBytes: stored, pushedBytes: pushed, day: day,
        setting: HouseholdQuotaSetting(storedBytes: storedQuota, dailyPushBytes: dailyQuota))
    }
    return HouseholdUsage(storedBytes: 0, pushedBytes: 0, day: day)
  }
}
