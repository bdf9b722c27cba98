import CommandLanguage
import Foundation
import Model
import Persistence
import Repositories
import Sync

/// restore --before T: every record of the current device back to how it was at T.
enum RestoreCommands {
  static let restore = CommandSpec(
    "restore",
    summary:
      "Bring every record of the current device back to how it showed at a time (UTC): deleted ones back, renamed ones renamed back, values written since put back, records created since deleted; as one atomic set of new changes that the next sync sends to every device. Shows a summary; the REPL only shows it until --apply, a script applies unless --dry-run.",
    options: [
      .value("before", "the time, in UTC: \"YYYY-MM-DD HH:MM[:SS]\" or ISO 8601 with a zone (and fractions of a second)", required: true),
      .flag("dry-run", "show what would change, change nothing"),
      .flag("apply", "apply in the REPL (which otherwise only shows what would change)"),
    ],
    examples: [
      "restore --before \"2026-11-28 14:05\"", "restore --before \"2026-11-28 14:05\" --apply",
      "restore --before 2026-11-28T14:05:00Z --dry-run",
    ]
  ) { invocation, session in
    let text = invocation.option("before") ?? ""
    guard let time = PointInTime.time(parsing: text) else {
      throw invocation.failure(
        "'\(text)' is not a time; use \"YYYY-MM-DD HH:MM\" (UTC), \"YYYY-MM-DD HH:MM:SS\" or ISO 8601 such as 2026-11-28T14:05:00Z",
        argument: "--before")
    }
    if invocation.flag("dry-run") && invocation.flag("apply") {
      throw invocation.failure("--dry-run and --apply contradict each other; give one", argument: "--apply")
    }
    let store = session.current.store
    let plan: PointInTime.Plan
    do {
      plan = try PointInTime.plan(before: time, in: store, now: store.clock())
    } catch let error as PointInTimeError {
      throw invocation.failure("nothing restored: \(error.description)", argument: "--before")
    }
    let dryRun = invocation.flag("dry-run") || (session.showsWritesFirst && !invocation.flag("apply"))
    if !dryRun {
      do {
        try PointInTime.apply(plan, to: store, now: store.clock())
      } catch let error as PointInTimeError {
        throw invocation.failure("nothing restored: \(error.description)")
      }
    }
    let stamp = ISO8601DateFormatter().string(from: time)
    var parts: [CommandResult.Part] = [
      .message(
        plan.writeCount == 0
          ? "every record already shows as at \(stamp): nothing to restore"
          : dryRun
            ? "would restore every record to \(stamp):" : "restored every record to \(stamp); the next sync sends it to every device:")
    ]
    if plan.writeCount > 0 { parts += plan.summary.map { .message("  " + $0) } }
    for left in plan.notKept.prefix(10) { parts.append(.message("  left as it is: \(left)")) }
    if dryRun, plan.writeCount > 0 {
      parts.append(.message(session.showsWritesFirst ? "run again with --apply to apply" : "run without --dry-run to apply"))
    }
    parts.append(
      .data(
        key: "restore",
        .object([
          .init("before", .string(stamp)), .init("applied", .bool(!dryRun && plan.writeCount > 0)), .init("restored", .int(plan.restored)),
          .init("removed", .int(plan.removed)), .init("changed", .int(plan.changed)), .init("renamed", .int(plan.renamed)),
          .init("writes", .int(plan.writeCount)), .init("notKept", .array(plan.notKept.map { .string($0.description) })),
        ])))
    return CommandResult(parts: parts)
  }
}
