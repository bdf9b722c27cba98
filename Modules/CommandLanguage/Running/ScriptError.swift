/// Why a command could not be parsed or run, written for the person at the prompt:
/// the command, the argument and the reason.
///
/// ```swift
/// ScriptError(.usage, command: "meal plan", argument: "date", reason: "'2024-13-01' is not a date")
///   .description  // "meal plan: date: '2024-13-01' is not a date"
/// ```
/// The kind tells front ends what happened; the batch runner turns it into an exit code.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong: the line, the command's words, its run, or an expectation.
  public enum Kind: String, Sendable, Hashable {
    /// The line could not be split into words (an unterminated quote, an unclosed block).
    case syntax
    /// The words do not form a valid command: unknown command or option, missing or
    /// malformed argument. Found before anything runs.
    case usage
    /// The command ran and failed; nothing was changed.
    case failed
    /// An `expect` command found something other than what it expected.
    case expectation
  }

  /// What went wrong; the batch runner's exit code follows from it.
  public var kind: Kind
  /// The command's name ("recipe add"), when known.
  public var command: String?
  /// The argument or option at fault ("date", "--page"), when one is.
  public var argument: String?
  /// Why, for the person at the prompt: "'2024-13-01' is not a date".
  public var reason: String
  /// The 1-based script line, when the error belongs to one.
  public var line: Int?
  /// What the command produced before it failed, shown with the error: `recipe import`'s
  /// table of files and why each failed.
  public var result: CommandResult?

  /// An error of `kind` with its `reason`, naming the command, argument and line when known.
  public init(
    _ kind: Kind, command: String? = nil, argument: String? = nil, reason: String, line: Int? = nil, result: CommandResult? = nil
  ) {
    self.kind = kind
    self.command = command
    self.argument = argument
    self.reason = reason
    self.line = line
    self.result = result
  }

  /// The command, the argument and the reason, joined by colons.
  public var description: String {
    [command, argument, reason].compactMap { $0 }.joined(separator: ": ")
  }

  /// Whether it was found while parsing (before anything ran).
  public var isParseError: Bool { kind == .syntax || kind == .usage }
}
