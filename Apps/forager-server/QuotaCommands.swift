import ArgumentParser
import Foundation
import SyncServer

struct HouseholdQuotaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "household-quota",
    abstract: "Show a household's stored bytes and bytes pushed today (UTC) against its quota; with an option, set its own quota.",
    discussion: """
      Without --stored-bytes, --daily-push-bytes or --default the household's quota is shown, not changed. A household \
      without its own quota has the server's (serve --household-stored-bytes, --household-daily-push-bytes).
      """)

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The household.") var household: String
  @Option(help: "Its own quota of bytes its log may hold (1048576 to 17592186044416, i.e. 1 MiB to 16 TiB).") var storedBytes: Int?
  @Option(help: "Its own quota of bytes its devices may push in a UTC day (1048576 to 17592186044416, i.e. 1 MiB to 16 TiB).")
  var dailyPushBytes: Int?
  @Flag(name: .customLong("default"), help: "Give it the server's quota again (then --stored-bytes or --daily-push-bytes, if given).")
  var useDefault = false

  func validate() throws {
    let stored = HouseholdQuota.storedBytesRange, daily = HouseholdQuota.dailyPushBytesRange
    if let storedBytes { try check(storedBytes, in: Int(stored.lowerBound)...Int(stored.upperBound), option: "--stored-bytes") }
    if let dailyPushBytes { try check(dailyPushBytes, in: Int(daily.lowerBound)...Int(daily.upperBound), option: "--daily-push-bytes") }
  }

  func run() async throws {
    do {
      let (household, stored, daily, reset) = (household, storedBytes.map(Int64.init), dailyPushBytes.map(Int64.init), useDefault)
      let report = try await database.withAdministration { admin in
        if stored == nil && daily == nil && !reset { return try await admin.quota(household: household) }
        return try await admin.setQuota(household: household, storedBytes: stored, dailyPushBytes: daily, reset: reset)
      }
      print(Self.describe(report))
    } catch {
      throw report(error)
    }
  }

  static func describe(_ report: Administration.QuotaReport) -> String {
    let setting = report.usage.setting
    func own(_ value: Int64?) -> String { value.map { "\($0) bytes (its own)" } ?? "the server's (serve option)" }
    return """
      household '\(report.household)'
      stored\t\(report.usage.storedBytes) bytes\tquota \(own(setting.storedBytes))
      pushed today (UTC)\t\(report.usage.pushedBytes) bytes\tdaily quota \(own(setting.dailyPushBytes))
      """
  }
}
