import Foundation

extension Administration {
  /// One household's quota as `forager-server household-quota` shows it: what it holds and
  /// pushed today (UTC), its own setting, and the quota in force.
  public struct QuotaReport: Sendable, Hashable {
    public let household: String
    public let usage: HouseholdUsage
    /// The quota in force: the household's setting, else the server's default.
    public let quota: HouseholdQuota
  }

  /// The household's usage and quota, the server's defaults being ``ServerConfiguration``'s.
  /// - Throws: ``ServerError`` for an unknown household.
  public func quota(household: String) async throws -> QuotaReport {
    let record = try await requireHousehold(household)
    let usage = try await storage.householdUsage(of: record.id, now: configuration.clock())
    return QuotaReport(household: record.name, usage: usage, quota: usage.setting.applied(to: configuration.heldQuota.household))
  }

  /// Sets the household's own stored-bytes and daily push quotas; a nil leaves that one as it
  /// is, and `reset` returns both to the server's defaults first.
  /// - Throws: ``ServerError`` for an unknown household or a value outside
  ///   ``HouseholdQuota/storedBytesRange`` / ``HouseholdQuota/dailyPushBytesRange``; nothing
  ///   is changed then.
  public func setQuota(household: String, storedBytes: Int64?, dailyPushBytes: Int64?, reset: Bool = false) async throws -> QuotaReport {
    try HouseholdQuota.validate(storedBytes: storedBytes, dailyPushBytes: dailyPushBytes)
    let record = try await requireHousehold(household)
    var setting = reset ? HouseholdQuotaSetting() : try await storage.householdUsage(of: record.id, now: configuration.clock()).setting
    if let storedBytes { setting.storedBytes = storedBytes }
    if let dailyPushBytes { setting.dailyPushBytes = dailyPushBytes }
    try await storage.setHouseholdQuota(setting, of: record.id)
    return try await quota(household: household)
  }
}
