/// The REPL's logic without a terminal: feed it lines, get back what to print.
///
/// It keeps lines of an unfinished command (a continuation backslash or an open
/// `recipe add …:` block) until the command is complete, and says which prompt to show.
///
/// ```swift
/// let repl = ReplEngine(interpreter: Interpreter(session: session))
/// let reply = repl.feed("category list")
/// print(reply.output ?? "")
/// ```
public final class ReplEngine {
  public let interpreter: Interpreter
  public var renderer: Renderer
  private var pending: [String] = []

  /// Where the results a command shows while it runs (`watch list`) are printed at once;
  /// nil: they are part of the command's reply, before its own output.
  public var show: ((String) -> Void)?

  public init(interpreter: Interpreter, renderer: Renderer = Renderer()) {
    self.interpreter = interpreter
    self.renderer = renderer
  }

  /// What one line produced.
  public struct Reply: Sendable, Hashable {
    /// Text for standard output, if any.
    public var output: String?
    /// An error line for standard error, if any.
    public var error: String?
    /// The session ended (`quit`).
    public var quits = false
    /// Whether the line ran something (for history).
    public var ran = false
  }

  /// The prompt: `forager> `, with the device when there are several, or `...> ` while a
  /// command is unfinished.
  public var prompt: String {
    if !pending.isEmpty { return "...> " }
    let session = interpreter.session
    return session.devices.count > 1 ? "forager[\(session.current.name)]> " : "forager> "
  }

  /// Whether lines of an unfinished command are waiting.
  public var isContinuing: Bool { !pending.isEmpty }

  /// Drops an unfinished command (Ctrl-C).
  public func cancel() { pending = [] }

  public func feed(_ line: String) -> Reply {
    pending.append(line)
    let text = pending.joined(separator: "\n")
    if interpreter.parser.needsMoreLines(text) { return Reply() }
    pending = []
    let parsed = interpreter.parser.parse(text)
    var reply = Reply()
    var outputs: [String] = []
    var errors: [String] = []
    let json = interpreter.session.outputMode == .json
    for var error in parsed.errors {
      error.line = nil
      errors.append(renderer.render(error, json: false))
      if json { outputs.append(renderer.render(error, json: true)) }
    }
    if parsed.errors.isEmpty {
      for invocation in parsed.statements {
        reply.ran = true
        do {
          let showsJSON = interpreter.wantsJSON(invocation)
          interpreter.session.showUpdate = { [renderer, show] update in
            let text = renderer.render(update, command: invocation.command, json: showsJSON)
            guard !text.isEmpty else { return }
            if let show { show(text) } else { outputs.append(text) }
          }
          defer { interpreter.session.showUpdate = nil }
          let result = try interpreter.run(invocation)
          let text = renderer.render(result, command: invocation.command, json: interpreter.wantsJSON(invocation))
          if !text.isEmpty { outputs.append(text) }
          if result.quits {
            reply.quits = true
            break
          }
        } catch {
          var error = error
          error.line = nil
          errors.append(renderer.render(error, json: false))
          if interpreter.wantsJSON(invocation) {
            outputs.append(renderer.render(error, json: true))
          } else if let result = error.result {
            let text = renderer.render(result, command: invocation.command, json: false)
            if !text.isEmpty { outputs.append(text) }
          }
          break
        }
      }
    }
    reply.output = outputs.isEmpty ? nil : outputs.joined(separator: "\n")
    reply.error = errors.isEmpty ? nil : errors.joined(separator: "\n")
    return reply
  }
}
