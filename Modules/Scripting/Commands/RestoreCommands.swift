import Foundation
import Model
import Repositories
import Sync

/// restore --before T: every record of the current device back to how it was at T.
enum RestoreCommands {
  static let group = CommandGroup("restore", summary: "Restore to a point in time", commands: [restore])

  static let restore = CommandSpec(
    "restore",
    summary:
      "Bring every record back to how it was at a time (UTC): deleted ones back, renamed ones renamed back, values written since reverted, records created since deleted; as one atomic set of new changes that sync. Shows a summary; --dry-run (the REPL's default until --yes) changes nothing.",
    options: [
      .value("before", "the time, in UTC: \"YYYY-MM-DD HH:MM[:SS]\" or ISO 8601 with a zone (and fractions of a second)", required: true),
      .flag("dry-run", "show what would change, change nothing"),
      .flag("yes", "apply in the REPL without showing first"),
    ],
    examples: ["restore --before \"2026-11-28 14:05\" --dry-run", "restore --before 2026-11-28T14:05:00Z --yes"]
  ) { invocation, session in
    let text = invocation.option("before") ?? ""
    guard let time = parseTime(text) else {
      throw invocation.failure(
        "'\(text)' is not a time; use \"YYYY-MM-DD HH:MM\" (UTC), \"YYYY-MM-DD HH:MM:SS\" or ISO 8601 such as 2026-11-28T14:05:00Z",
        argument: "--before")
    }
    let plan: PointInTime.Plan
    do {
      plan = try PointInTime.plan(before: time, in: session.current.store, now: session.now())
    } catch let error as PointInTimeError {
      throw invocation.failure(error.description, argument: "--before")
    }
    let dryRun = invocation.flag("dry-run") || (session.showsWritesFirst && !invocation.flag("yes"))
    if !dryRun {
      do {
        try session.library.revert(plan.reverts)
      } catch {
        throw invocation.failure("nothing restored: \(error)")
      }
    }
    let stamp = ISO8601DateFormatter().string(from: time)
    var parts: [CommandResult.Part] = [
      .message(dryRun ? "would restore every record to \(stamp):" : "restored every record to \(stamp):")
    ]
    parts += plan.summary.map { .message("  " + $0) }
    if dryRun, !plan.reverts.isEmpty {
      parts.append(.message(session.showsWritesFirst ? "run again with --yes to apply" : "run without --dry-run to apply"))
    }
    parts.append(
      .data(
        key: "restore",
        .object([
          .init("before", .string(stamp)), .init("applied", .bool(!dryRun)), .init("restored", .int(plan.restored)),
          .init("removed", .int(plan.removed)), .init("changed", .int(plan.changed)), .init("renamed", .int(plan.renamed)),
          .init("notKept", .array(plan.notKept.map { .string($0) })),
        ])))
    return CommandResult(parts: parts)
  }

  /// A time in UTC: "YYYY-MM-DD HH:MM", with seconds, or ISO 8601 with a zone.
  static func parseTime(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let iso = ISO8601DateFormatter()
    if let date = iso.date(from: trimmed) { return date }
    iso.formatOptions.insert(.withFractionalSeconds)
    if let date = iso.date(from: trimmed) { return date }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: trimmed) { return date }
    }
    return nil
  }
}
