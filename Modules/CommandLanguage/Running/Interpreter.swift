import Foundation
import Persistence
import Repositories

/// Runs the command language against a ``Session``: parse, run, and hand back
/// structured results (rendering is the ``Renderer``'s job).
///
/// ```swift
/// let interpreter = Interpreter(session: try Session(location: "memory"))
/// let results = try interpreter.execute("category add Produce\ncategory list")
/// ```
public final class Interpreter {
  public let session: Session
  public let parser: ScriptParser

  public init(session: Session) {
    self.session = session
    self.parser = ScriptParser(registry: session.registry)
  }

  public var registry: CommandRegistry { session.registry }

  /// Runs one bound command.
  /// - Throws: ``ScriptError``: `.failed` for a command that failed (nothing changed),
  ///   `.expectation` for an `expect` that did not hold.
  public func run(_ invocation: Invocation) throws(ScriptError) -> CommandResult {
    try Self.perform(invocation, in: session)
  }

  static func perform(_ invocation: Invocation, in session: Session) throws(ScriptError) -> CommandResult {
    if invocation.wantsHelp { return HelpText.result(for: invocation.spec) }
    do {
      let result = try session.recordingUndo(of: invocation) { try invocation.spec.action(invocation, session) }
      // A live device pushes what the command wrote after the debounce.
      if !session.live.drivers.isEmpty { session.noteLiveWrites() }
      return result
    } catch let error as ScriptError {
      var error = error
      if error.command == nil { error.command = invocation.command }
      if error.line == nil, invocation.line > 0 { error.line = invocation.line }
      throw error
    } catch {
      var reason = Self.reason(for: error)
      if case RepositoryError.notFound(let kind, let name) = error {
        reason += NameSuggestion.text(for: name, kind: kind, in: session.library)
      }
      throw ScriptError(.failed, command: invocation.command, reason: reason, line: invocation.line > 0 ? invocation.line : nil)
    }
  }

  /// The readable reason of any error a repository or store throws.
  static func reason(for error: any Error) -> String {
    switch error {
    case let error as RepositoryError: error.description
    case let error as StoreError: error.description
    case let error as CustomStringConvertible: error.description
    default: String(describing: error)
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
  public func wantsJSON(_ invocation: Invocation) -> Bool {
    invocation.wantsJSON || session.outputMode == .json
  }
}
