import CommandLanguage
import Foundation
import Model
import Repositories
import Seed

/// seed defaults, seed sample.
enum SeedCommands {
  static let defaults = CommandSpec(
    "seed defaults", summary: "Create the 7 default grocery categories; seeding again (or on another device) creates nothing twice.",
    examples: ["seed defaults"]
  ) { _, session in
    result(try Seed.defaults(into: session.library))
  }

  static let sample = CommandSpec(
    "seed sample",
    summary: "Create the sample library: the default categories, 3 books, 8 recipes and their ingredients; idempotent, on every device.",
    examples: ["seed sample"]
  ) { _, session in
    result(try Seed.sample(into: session.library))
  }

  /// The report as a sentence and, for JSON, a tally per kind.
  private static func result(_ report: SeedReport) -> CommandResult {
    let tallies = SeedReport.kinds.filter { report[$0].total > 0 }.map { kind in
      JSONValue.Member(kind.rawValue, ["created": .int(report[kind].created), "alreadyPresent": .int(report[kind].alreadyPresent)])
    }
    return CommandResult(
      .message(report.description), .data(key: "seeded", .object(tallies)),
      .data(key: "skippedAliases", .strings(report.skippedAliases)))
  }
}
