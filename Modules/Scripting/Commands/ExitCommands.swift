import CommandLanguage

/// exit: ends the session, like quit.
enum ExitCommands {
  static let exit = CommandSpec("exit", summary: "End the session, like quit.", examples: ["exit"]) { _, _ in
    var result = CommandResult.empty
    result.quits = true
    return result
  }
}
