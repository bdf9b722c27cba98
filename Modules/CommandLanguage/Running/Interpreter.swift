/// Runs a command language against its context: parse, run, and hand back structured
/// results (rendering is the ``Renderer``'s job).
///
/// ```swift
/// let interpreter = Interpreter(context: session)
/// let results = try interpreter.execute("category add Produce\ncategory list")
/// ```
public final class Interpreter<Context: CommandContext> {
  /// What the commands run against.
  public let context: Context
  /// The parser of the context's registry.
  public let parser: ScriptParser<Context>

  /// An interpreter of `context`'s language.
  public init(context: Context) {
    self.context = context
    self.parser = ScriptParser(registry: context.registry)
  }

  /// The commands it knows.
  public var registry: CommandRegistry<Context> { context.registry }

  /// Runs one bound command.
  /// - Throws: ``ScriptError``: `.failed` for a command that failed (nothing changed),
  ///   `.expectation` for an `expect` that did not hold.
  public func run(_ invocation: Invocation<Context>) throws(ScriptError) -> CommandResult {
    try Self.perform(invocation, in: context)
  }

  /// Runs one bound command in `context`: `--help` prints its help; an error gets the
  /// command's name and line.
  /// - Throws: ``ScriptError``, as ``run(_:)``.
  public static func perform(_ invocation: Invocation<Context>, in context: Context) throws(ScriptError) -> CommandResult {
    if invocation.wantsHelp { return HelpText.result(for: invocation.spec) }
    do {
      return try context.perform(invocation)
    } catch let error as ScriptError {
      var error = error
      if error.command == nil { error.command = invocation.command }
      if error.line == nil, invocation.line > 0 { error.line = invocation.line }
      throw error
    } catch {
      throw ScriptError(
        .failed, command: invocation.command, reason: context.reason(for: error), line: invocation.line > 0 ? invocation.line : nil)
    }
  }

  /// Parses and runs `text`, stopping at the first error.
  /// - Throws: the first ``ScriptError``, parse errors before anything runs.
  @discardableResult
  public func execute(_ text: String) throws(ScriptError) -> [CommandResult] {
    let parsed = parser.parse(text)
    if let first = parsed.errors.first { throw first }
    var results: [CommandResult] = []
    for invocation in parsed.statements {
      let result = try run(invocation)
      results.append(result)
      if result.quits { break }
    }
    return results
  }

  /// Whether a command's result should be JSON: its own `--json` or the session mode.
  public func wantsJSON(_ invocation: Invocation<Context>) -> Bool {
    invocation.wantsJSON || context.printsJSON
  }
}
