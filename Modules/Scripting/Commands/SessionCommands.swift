import CommandLanguage
import Foundation
import Model
import Repositories

/// help, open, output, counts, duplicates, quit.
enum SessionCommands {
  static let group = CommandGroup("session", summary: "Session", commands: [help, open, output, counts, duplicates, quit, exit])

  static let help = CommandSpec(
    "help", summary: "List the commands, or show one command's usage and example.",
    parameters: [.rest("command", optional: true, completion: .commands, help: "a command or a group word (recipe)")],
    examples: ["help", "help recipe add", "help meal"]
  ) { invocation, session in
    guard let name = invocation.optionalArgument("command") else { return HelpText.overview(session.registry) }
    if let spec = session.registry.command(named: name) { return HelpText.result(for: spec) }
    let commands = session.registry.subcommands(of: name)
    if !commands.isEmpty { return HelpText.group(name.lowercased(), commands) }
    throw invocation.failure("no command named '\(name)'; type 'help' for the list", argument: "command")
  }

  static let open = CommandSpec(
    "open", summary: "Point the current device at another store: a SQLite file (created when missing) or a new in-memory store.",
    parameters: [.rest("path", optional: true, help: "a SQLite file")],
    options: [.flag("memory", "open a fresh in-memory store instead of a file")],
    oneOf: [OneOf("path", "--memory", required: true)],
    examples: ["open ~/kitchen.sqlite", "open --memory"]
  ) { invocation, session in
    let location =
      invocation.flag("memory") ? "memory" : Session.location(forStorePath: expandHome(invocation.argument("path")))
    try session.reopenCurrent(location: location, command: invocation.command)
    return CommandResult(
      .message("device '\(session.current.name)' now uses \(session.current.location)"),
      .data(key: "device", ["name": .string(session.current.name), "store": .string(session.current.location)]))
  }

  static let output = CommandSpec(
    "output", summary: "Choose how results are printed from now on: aligned tables or JSON (one object per line).",
    parameters: [.word("mode", .choice(["table", "json"]), completion: .words(["table", "json"]), help: "table or json")],
    examples: ["output json", "output table"]
  ) { invocation, session in
    session.outputMode = Session.OutputMode(rawValue: invocation.argument("mode")) ?? .table
    return CommandResult(.message("output: \(session.outputMode.rawValue)"), .data(key: "mode", .string(session.outputMode.rawValue)))
  }

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

  static let duplicates = CommandSpec(
    "duplicates",
    summary: "Live records that share a semantic key: possible duplicate recipes, and for unique kinds what should never exist.",
    parameters: [.word("kind", .kind, optional: true, completion: .words(KitchenValues.kindWords), help: "only this kind")],
    examples: ["duplicates", "duplicates recipe"]
  ) { invocation, session in
    let kinds = invocation.optionalArgument("kind").flatMap(EntityKind.init(rawValue:)).map { [$0] } ?? EntityKind.allCases
    return Rows.duplicates(try session.library.duplicates(of: kinds))
  }

  static let quit = CommandSpec("quit", summary: "End the session (Ctrl-D does too).", examples: ["quit"]) { _, _ in
    var result = CommandResult.empty
    result.quits = true
    return result
  }

  static let exit = CommandSpec("exit", summary: "End the session, like quit.", examples: ["exit"]) { _, _ in
    var result = CommandResult.empty
    result.quits = true
    return result
  }
}

/// `~/x` → `$HOME/x`.
func expandHome(_ path: String) -> String {
  guard path == "~" || path.hasPrefix("~/") else { return path }
  let home = ProcessEnvironment.home
  return home + path.dropFirst()
}
