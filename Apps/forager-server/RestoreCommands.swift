import ArgumentParser
import Foundation
import SyncServer

struct RestoreHousehold: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore-household",
    abstract:
      "Restore a household to how its log showed it before a time: every record back (deleted ones restored, renamed ones renamed back, records created since deleted), written into the log as one batch of the device 'operator restore' that every device pulls. Shows the plan only, unless --apply."
  )

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The household.") var household: String
  @Option(help: "The time, in UTC: \"YYYY-MM-DD HH:MM[:SS]\" or ISO 8601 with a zone.") var before: String
  @Flag(help: "Write the restore into the log (without it, only show what it would change).") var apply = false

  func run() async throws {
    guard let time = Administration.restoreTime(parsing: before) else {
      throw CommandFailure(
        "--before: '\(before)' is not a time; use \"YYYY-MM-DD HH:MM\" (UTC), \"YYYY-MM-DD HH:MM:SS\" or ISO 8601 such as 2026-11-28T14:05:00Z"
      )
    }
    do {
      let restore = try await database.withAdministration { [household, apply] in
        try await $0.restoreHousehold(household, before: time, apply: apply)
      }
      let stamp = time.formatted(.iso8601)
      if restore.writeCount == 0 {
        print("household '\(household)' already shows as before \(stamp): nothing to restore")
      } else if let sequence = restore.sequence {
        print("household '\(household)' restored to before \(stamp): sequence \(sequence), device '\(Administration.restoreDeviceName)'")
      } else {
        print("would restore household '\(household)' to before \(stamp) (run again with --apply):")
      }
      for line in restore.summary where restore.writeCount > 0 { print("  " + line) }
      if restore.unreadBatches > 0 {
        print("  \(restore.unreadBatches) batch(es) of a schema this server does not read are left as they are")
      }
    } catch {
      throw report(error)
    }
  }
}
