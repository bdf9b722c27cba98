import CommandLanguage
import Model
import Repositories

/// counts: how many live records of each kind the current device holds.
enum CountsCommands {
  static let counts = CommandSpec(
    "counts", summary: "How many live records of each kind the current device holds.",
    examples: ["counts"]
  ) { _, session in
    let counts = try session.library.counts()
    let rows: [[JSONValue]] = EntityKind.allCases.map { [.string($0.label), .int(counts[$0] ?? 0)] }
    return CommandResult(
      .table(
        Table(
          key: "counts", columns: [Table.Column("kind"), Table.Column("count", alignRight: true)], rows: rows, emptyText: "")))
  }
}
