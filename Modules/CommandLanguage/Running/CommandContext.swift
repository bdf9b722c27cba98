/// What commands run against: the state a language built on this module keeps between
/// commands (the kitchen's session, its store and devices).
///
/// The ``Interpreter``, the ``ReplEngine`` and the ``Completer`` are generic over it: they
/// parse with its ``registry``, hand each bound command to ``perform(_:)``, and ask it for
/// the names a completion lists and the prompt to show.
public protocol CommandContext: AnyObject {
  /// The commands it runs.
  var registry: CommandRegistry<Self> { get }

  /// Whether every result is printed as JSON (a session-wide output mode), not only those
  /// of commands given `--json`.
  var printsJSON: Bool { get }

  /// The REPL prompt: "forager> ".
  var prompt: String { get }

  /// Where a running command hands the results it shows before it ends (`watch list`);
  /// the REPL engine sets it around each command.
  var showUpdate: ((CommandResult) -> Void)? { get set }

  /// Runs one bound command: its action, with whatever the context does around it
  /// (recording an undo step, pushing to a live cloud). `invocation.spec` holds the action;
  /// a `ScriptError` passes through, any other error becomes a failure with
  /// ``reason(for:)``.
  func perform(_ invocation: Invocation<Self>) throws -> CommandResult

  /// The readable reason of an error a command's action threw (not a `ScriptError`).
  func reason(for error: any Error) -> String

  /// The names a ``Completion/source(_:)`` completion offers that may start with `typed`
  /// (the completer filters them again).
  func completions(from source: String, startingWith typed: String) -> [String]
}

extension CommandSpec {
  /// Runs the command's action on its own, with nothing around it (a context's
  /// `perform(_:)` calls it).
  public func run(_ invocation: Invocation<Context>, in context: Context) throws -> CommandResult {
    try action(invocation, context)
  }
}
