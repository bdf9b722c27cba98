import CommandLanguage

/// output: how results are printed (tables or JSON lines).
enum OutputCommands {
  static let output = CommandSpec(
    "output", summary: "Choose how results are printed from now on: aligned tables or JSON (one object per line).",
    parameters: [.word("mode", .choice(["table", "json"]), completion: .words(["table", "json"]), help: "table or json")],
    examples: ["output json", "output table"]
  ) { invocation, session in
    session.outputMode = Session.OutputMode(rawValue: invocation.argument("mode")) ?? .table
    return CommandResult(.message("output: \(session.outputMode.rawValue)"), .data(key: "mode", .string(session.outputMode.rawValue)))
  }
}
