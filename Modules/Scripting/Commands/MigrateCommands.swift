import CommandLanguage
import Foundation
import Migration
import Model
import Sync

/// migrate: upgrades an old store file (schema v1 to v5) in the stages of
/// Docs/MIGRATIONS.md — backup, stage A, dedup, stage B, stages C to E.
enum MigrateCommands {
  static let migrate = CommandSpec(
    "migrate",
    summary: "Upgrade a store file from schema v1 (the earlier app) or later to v6, after copying it to PATH.vN.backup.",
    parameters: [.rest("path", optional: true, help: "the store file; default: the current device's file")],
    options: [
      .flag("dry-run", "report what would change; the file is not touched"),
      .value(
        "to", "stop at this schema version (2: keys without constraints; 3: constraints; 4: list keys; 5: stores; 6: current)",
        .choice(["2", "3", "4", "5", "6"])),
      .value("time-zone", "the zone planned meals were made in (default: this device's zone)", placeholder: "ZONE"),
      .flag("name-unnamed", "give records with a blank name a placeholder name instead of refusing stage B"),
      .flag("no-backup", "do not copy the file first"),
      .flag("force", "go to v6 even while other active devices of the household still sync an older schema"),
    ],
    details: [
      "Stage A renames name/title to displayName, fills in every semantic key and timestamp, reads planned-meal",
      "instants as civil dates in --time-zone and infers missing meal types from the hour. The dedup step merges",
      "records that share a key into the one with the smallest id. Stage B adds the unique constraints, or refuses",
      "and names the records in the way. Stage C keys weekly lists by ISO week and name and merges a week's lists of one",
      "name; stage D adds stores and pantry amounts, stage E ingredient groups. Each stage is one transaction: a crash leaves the version before it, never between.",
      "Running migrate again changes nothing. A store that syncs goes to v6 only when the cloud's registry shows no other",
      "device of the household active (seen in 30 days) on an older schema, unless --force. See Docs/MIGRATIONS.md.",
    ],
    examples: [
      "migrate ~/old-kitchen.sqlite --dry-run", "migrate ~/old-kitchen.sqlite", "migrate old.sqlite --to 2 --time-zone Europe/Paris",
    ]
  ) { invocation, session in
    let path: String
    if let given = invocation.optionalArgument("path") {
      path = expandHome(given)
    } else if session.current.location.hasPrefix("sqlite:") {
      path = String(session.current.location.dropFirst("sqlite:".count))
    } else {
      throw invocation.failure("missing; give the store file PATH (the current device's store is in memory)", argument: "path")
    }
    var options = MigrationOptions(
      target: invocation.option("to").flatMap { Int($0) }, makeBackup: !invocation.flag("no-backup"),
      nameUnnamed: invocation.flag("name-unnamed")
    )
    if let zone = invocation.option("time-zone") {
      guard let timeZone = TimeZone(identifier: zone) else {
        throw invocation.failure("'\(zone)' is not a time zone (e.g. America/New_York, Europe/Paris, UTC)", argument: "--time-zone")
      }
      options.timeZone = timeZone
    }
    let migrator = StoreMigrator(path: path, clock: session.now)
    if (options.target ?? StoreMigrator.currentVersion) == StoreMigrator.currentVersion, !invocation.flag("force"),
      case .forager(let version)? = try? migrator.version(), version < StoreMigrator.currentVersion,
      let refusal = UpgradeGate.refusal(path: path, cloud: session.cloud(for: session.current), now: session.now())
    {
      throw invocation.failure("not upgrading \(path) to v\(StoreMigrator.currentVersion): \(refusal)")
    }
    let report: MigrationReport
    do {
      report = invocation.flag("dry-run") ? try migrator.dryRun(options) : try migrator.migrate(options)
    } catch let error as MigrationError {
      throw invocation.failure(error.description)
    }
    var lines = report.lines
    if !report.isDryRun && report.toVersion == StoreMigrator.currentVersion && !report.isNoOp {
      lines.append("open \(path) to use it")
    }
    return CommandResult(.message(lines.joined(separator: "\n")), .data(key: "migration", json(report)))
  }

  /// The report for `--json`.
  private static func json(_ report: MigrationReport) -> JSONValue {
    var members: [JSONValue.Member] = [
      .init("path", .string(report.path)), .init("from", .int(report.fromVersion)), .init("to", .int(report.toVersion)),
      .init("dryRun", .bool(report.isDryRun)), .init("backup", report.backupPath.map(JSONValue.string) ?? .null),
      .init("timeZone", .string(report.timeZone)), .init("constraintsAdded", .bool(report.addedConstraints)),
    ]
    if let stageA = report.stageA {
      members.append(
        .init("converted", .object(stageA.converted.sorted { $0.key < $1.key }.map { .init($0.key.rawValue, .int($0.value)) })))
      members.append(.init("inferredMealTypes", .int(stageA.inferredMealTypes)))
      members.append(.init("notes", .array(stageA.notes.map(JSONValue.string))))
    }
    if let dedup = report.dedup {
      members.append(
        .init(
          "merged",
          .array(
            dedup.merges.map { merge in
              .object([
                .init("kind", .string(merge.kind.rawValue)), .init("key", .string(merge.key)),
                .init("keeper", .string(merge.keeper.id.uuidString.lowercased())),
                .init("losers", .array(merge.losers.map { .string($0.id.uuidString.lowercased()) })),
                .init("dropped", .array(merge.dropped.map(JSONValue.string))),
              ])
            })))
    }
    if let refusal = report.refusal { members.append(.init("refusal", .array(refusal.lines.map(JSONValue.string)))) }
    members.append(.init("named", .array(report.named.map { .string($0.description) })))
    return .object(members)
  }
}
