import ArgumentParser
import Foundation
import SyncServer

struct CompactHousehold: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compact-household",
    abstract:
      "Compact a household's log now: make its snapshot when due, then drop the batches every registered device has pulled, that a kept snapshot holds and that arrived before the retention window, and the snapshots below the new floor. Prints what it drops; --dry-run drops nothing.",
    discussion: "serve does the same for every household each hour (Docs/SERVER.md, \"Compaction\").")

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The household.") var household: String
  @Option(help: ServeLimit.retention.help) var retention: Int?
  @Option(help: ServeLimit.snapshotInterval.help) var snapshotInterval: Int?
  @Flag(help: "Only print what it would drop (counting the snapshot a run would make first); make and drop nothing.")
  var dryRun = false

  func validate() throws {
    if let retention { try check(retention, in: ServeLimit.retention.range, option: ServeLimit.retention.flag) }
    if let snapshotInterval { try check(snapshotInterval, in: ServeLimit.snapshotInterval.range, option: ServeLimit.snapshotInterval.flag) }
  }

  func run() async throws {
    var configuration = ServerConfiguration()
    if let retention { configuration.retention = TimeInterval(retention) * 86_400 }
    if let snapshotInterval { configuration.snapshotInterval = snapshotInterval }
    do {
      let done = try await database.withAdministration(configuration: configuration) { [household, dryRun] in
        try await $0.compactHousehold(household, dryRun: dryRun)
      }
      print(Self.describe(done, household: household))
    } catch {
      throw report(error)
    }
  }

  static func describe(_ done: HouseholdCompaction, household: String) -> String {
    let verb = done.dryRun ? "would drop" : "dropped"
    var lines: [String] = []
    if done.batches == 0 {
      lines.append("household '\(household)': nothing to drop; its log starts after sequence \(done.previousFloor)")
    } else {
      let range = done.floor == done.previousFloor + 1 ? "batch \(done.floor)" : "batches \(done.previousFloor + 1)–\(done.floor)"
      lines.append("household '\(household)': \(verb) \(range) (\(done.batches) batches, \(done.bytes) bytes)")
    }
    lines.append("  floor \(done.floor), set by \(done.limit)")
    if !done.snapshots.isEmpty { lines.append("  \(verb) snapshots at \(done.snapshots.map(String.init).joined(separator: ", "))") }
    return lines.joined(separator: "\n")
  }
}
