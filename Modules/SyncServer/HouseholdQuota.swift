public import Foundation
import HTTPTypes

/// How much one household may keep and push: the bytes its log holds and the bytes its
/// devices push in a day (UTC). Past either a push is refused (`413 household-quota-stored`,
/// `429 household-quota-daily`) and writes nothing; retries of stored batches are not. The
/// server's defaults come from `forager-server serve`; an operator raises or lowers one
/// household's with `forager-server household-quota` (Docs/SERVER.md, "Household quota").
public struct HouseholdQuota: Sendable, Hashable {
  /// The most bytes of batches the household's log may hold (default 4 GiB).
  public var storedBytes: Int64
  /// The most bytes of batches the household's devices may push in a UTC day (default 1 GiB).
  public var dailyPushBytes: Int64

  /// The values `--household-stored-bytes` and a household's own stored quota may take: 1 MiB to 16 TiB.
  public static let storedBytesRange: ClosedRange<Int64> = (1 << 20)...(1 << 44)
  /// The values `--household-daily-push-bytes` and a household's own daily quota may take: 1 MiB to 16 TiB.
  public static let dailyPushBytesRange: ClosedRange<Int64> = (1 << 20)...(1 << 44)

  public init(storedBytes: Int64 = 4 << 30, dailyPushBytes: Int64 = 1 << 30) {
    self.storedBytes = storedBytes
    self.dailyPushBytes = dailyPushBytes
  }

  /// The UTC day of an instant, in days since 1970: the day a push counts against.
  public static func day(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

  /// Refuses values outside ``storedBytesRange`` and ``dailyPushBytesRange``.
  public static func validate(storedBytes: Int64?, dailyPushBytes: Int64?) throws(ServerError) {
    if let storedBytes, !storedBytesRange.contains(storedBytes) {
      throw .badRequest(
        "quota-invalid",
        "the stored-bytes quota must be from \(storedBytesRange.lowerBound) to \(storedBytesRange.upperBound); got \(storedBytes)")
    }
    if let dailyPushBytes, !dailyPushBytesRange.contains(dailyPushBytes) {
      throw .badRequest(
        "quota-invalid",
        "the daily push quota must be from \(dailyPushBytesRange.lowerBound) to \(dailyPushBytesRange.upperBound); got \(dailyPushBytes)")
    }
  }
}

/// A household's own quota as an operator set it; nil: the server's default.
public struct HouseholdQuotaSetting: Sendable, Hashable {
  public var storedBytes: Int64?
  public var dailyPushBytes: Int64?

  public init(storedBytes: Int64? = nil, dailyPushBytes: Int64? = nil) {
    self.storedBytes = storedBytes
    self.dailyPushBytes = dailyPushBytes
  }

  /// The quota in force: this setting where it has one, else `defaults`.
  public func applied(to defaults: HouseholdQuota) -> HouseholdQuota {
    HouseholdQuota(storedBytes: storedBytes ?? defaults.storedBytes, dailyPushBytes: dailyPushBytes ?? defaults.dailyPushBytes)
  }
}

/// What a household holds and pushed on one day, and its own quota setting, as a backend
/// reads it under the household's lock.
public struct HouseholdUsage: Sendable, Hashable {
  /// Bytes of batches in its log.
  public var storedBytes: Int64
  /// Bytes its devices pushed on `day`.
  public var pushedBytes: Int64
  /// The UTC day `pushedBytes` counts (``HouseholdQuota/day(of:)``).
  public var day: Int
  public var setting: HouseholdQuotaSetting

  public init(storedBytes: Int64, pushedBytes: Int64, day: Int, setting: HouseholdQuotaSetting = HouseholdQuotaSetting()) {
    self.storedBytes = storedBytes
    self.pushedBytes = pushedBytes
    self.day = day
    self.setting = setting
  }

  /// Refuses a push of `bytes` more that would take the household past its quota in force.
  public func check(adding bytes: Int, defaults: HouseholdQuota, household: String) throws(ServerError) {
    let quota = setting.applied(to: defaults)
    let adding = Int64(bytes)
    if storedBytes + adding > quota.storedBytes {
      throw .householdQuotaStored(household: household, stored: storedBytes, adding: adding, limit: quota.storedBytes)
    }
    if pushedBytes + adding > quota.dailyPushBytes {
      throw .householdQuotaDaily(household: household, pushed: pushedBytes, adding: adding, limit: quota.dailyPushBytes)
    }
  }
}

extension ServerError {
  /// A push that would take its household's log past its stored-bytes quota.
  public static func householdQuotaStored(household: String, stored: Int64, adding: Int64, limit: Int64) -> ServerError {
    ServerError(
      .contentTooLarge, code: "household-quota-stored",
      message: "household '\(household)' holds \(stored) bytes of batches; \(adding) bytes more would pass its quota of \(limit) bytes. "
        + "Ask the server's operator to raise it (forager-server household-quota)")
  }

  /// A push that would take its household's bytes pushed today (UTC) past its daily quota.
  public static func householdQuotaDaily(household: String, pushed: Int64, adding: Int64, limit: Int64) -> ServerError {
    ServerError(
      .tooManyRequests, code: "household-quota-daily",
      message: "household '\(household)' pushed \(pushed) bytes today (UTC); \(adding) bytes more would pass its daily quota of \(limit) "
        + "bytes. Push again after midnight UTC, or ask the server's operator to raise it (forager-server household-quota)")
  }
}
