import CommandLanguage

/// quit: ends the session.
enum QuitCommands {
  static let quit = CommandSpec("quit", summary: "End the session (Ctrl-D does too).", examples: ["quit"]) { _, _ in
    var result = CommandResult.empty
    result.quits = true
    return result
  }
}
