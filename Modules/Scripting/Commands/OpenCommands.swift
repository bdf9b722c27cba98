import CommandLanguage

/// open: point the current device at another store.
enum OpenCommands {
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
}
