import CommandLanguage

/// help: the list of commands, or one command's usage and examples.
enum HelpCommands {
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
}
