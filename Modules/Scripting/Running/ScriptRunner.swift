public import CommandLanguage
import Foundation
import Repositories

/// Runs a whole script for the batch runner: parse everything first, then run command
/// by command, reporting `script:LINE: error: …`.
///
/// - A script with a syntax or usage error runs nothing: every such error is reported.
/// - Without `keepGoing` the run stops at the first failing command.
/// - With `atomic` the whole run is one transaction per device store: when any command
///   fails (or an `expect` does not hold), every store is left as it was. A store the
///   script opens or a device it adds joins the run's transactions from then on.
/// - With the session's ``Session/undoFile`` set (not in atomic runs), the file is written
///   before the first command and after every command that changed records.
///
/// ```swift
/// let runner = ScriptRunner(session: session, options: .init(atomic: true), scriptName: "plan.forager",
///                           output: { print($0) }, diagnostics: { FileHandle.standardError.write(…) })
/// let report = runner.run(scriptText)
/// ```
public final class ScriptRunner {
  public struct Options: Sendable {
    public var keepGoing: Bool
    public var atomic: Bool
    /// Start in JSON output mode (`--json`).
    public var json: Bool
    public var colors: Bool

    public init(keepGoing: Bool = false, atomic: Bool = false, json: Bool = false, colors: Bool = false) {
      self.keepGoing = keepGoing
      self.atomic = atomic
      self.json = json
      self.colors = colors
    }
  }

  /// How a run ended; the app turns it into an exit code.
  public enum Status: Sendable, Hashable {
    case success
    /// A command failed.
    case commandFailed
    /// The script has syntax or usage errors; nothing ran.
    case usage
    /// An `expect` did not hold.
    case expectationFailed
  }

  public struct Report: Sendable {
    public var status: Status
    public var errors: [ScriptError]
    /// Commands parsed.
    public var commands: Int
    /// Commands that ran without error.
    public var succeeded: Int
    /// Whether an atomic run was rolled back.
    public var rolledBack: Bool
  }

  let session: Session
  let options: Options
  let scriptName: String
  let output: (String) -> Void
  let diagnostics: (String) -> Void
  let progress: ((Int, Int) -> Void)?
  let renderer: Renderer

  public init(
    session: Session, options: Options = Options(), scriptName: String, output: @escaping (String) -> Void,
    diagnostics: @escaping (String) -> Void, progress: ((Int, Int) -> Void)? = nil
  ) {
    self.session = session
    self.options = options
    self.scriptName = scriptName
    self.output = output
    self.diagnostics = diagnostics
    self.progress = progress
    self.renderer = Renderer(colors: options.colors)
  }

  /// Parses a script without running anything (`--dry-run`), reporting every syntax
  /// and usage error with its line.
  public static func check(
    _ text: String, scriptName: String, registry: CommandLanguage.CommandRegistry<Session> = .standard, diagnostics: (String) -> Void
  ) -> Report {
    let parsed = ScriptParser(registry: registry).parse(text)
    for error in parsed.errors { diagnostics(location(scriptName, error) + "error: " + error.description) }
    return Report(
      status: parsed.errors.isEmpty ? .success : .usage, errors: parsed.errors, commands: parsed.statements.count,
      succeeded: 0, rolledBack: false)
  }

  static func location(_ name: String, _ error: ScriptError) -> String {
    error.line.map { "\(name):\($0): " } ?? "\(name): "
  }

  public func run(_ text: String) -> Report {
    let parsed = ScriptParser(registry: session.registry).parse(text)
    if !parsed.errors.isEmpty {
      for error in parsed.errors { report(error) }
      return Report(status: .usage, errors: parsed.errors, commands: parsed.statements.count, succeeded: 0, rolledBack: false)
    }
    if options.json { session.outputMode = .json }
    if session.undoFile != nil && options.atomic {
      diagnostics("\(scriptName): error: an atomic run writes no undo file (it keeps nothing unless it all succeeds); nothing ran")
      return Report(status: .usage, errors: [], commands: parsed.statements.count, succeeded: 0, rolledBack: false)
    }
    if let undoFile = session.undoFile {
      // Written before the first command, so a path that cannot be written runs nothing.
      undoFile.scriptName = scriptName
      do {
        try undoFile.write(session.undoable)
      } catch {
        diagnostics("\(scriptName): error: \(error.description); nothing ran")
        return Report(status: .usage, errors: [], commands: parsed.statements.count, succeeded: 0, rolledBack: false)
      }
    }
    var state = RunState(statements: parsed.statements)
    if options.atomic {
      do {
        try runAtomically(&state)
      } catch {
        state.rolledBack = true
        diagnostics("\(scriptName): error: no changes kept (--atomic): the script did not complete")
      }
    } else {
      _ = runCommands(&state, from: 0)
    }
    if progress != nil { progress?(state.statements.count, state.statements.count) }
    let status: Status =
      switch state.errors.first?.kind {
      case nil: .success
      case .syntax, .usage: .usage
      case .failed: .commandFailed
      case .expectation: .expectationFailed
      }
    return Report(
      status: status, errors: state.errors, commands: parsed.statements.count, succeeded: state.succeeded,
      rolledBack: state.rolledBack)
  }

  struct RunState {
    let statements: [Invocation]
    var errors: [ScriptError] = []
    var succeeded = 0
    var rolledBack = false
  }

  enum Stop: Error {
    case failed
  }

  /// Runs commands from `index`; returns the index it stopped at (the count when done).
  /// Stops early on an error (without keepGoing), on `quit`, or — in atomic runs — after
  /// a command that opened a store, so the caller can wrap the rest in its transaction.
  private func runCommands(_ state: inout RunState, from start: Int, pendingStores: (() -> [Device])? = nil) -> Int {
    var index = start
    while index < state.statements.count {
      let invocation = state.statements[index]
      index += 1
      progress?(index - 1, state.statements.count)
      do {
        session.showUpdate = { [renderer, output, session] update in
          let text = renderer.render(update, command: invocation.command, json: invocation.wantsJSON || session.outputMode == .json)
          if !text.isEmpty { output(text) }
        }
        defer { session.showUpdate = nil }
        let result = try Interpreter<Session>.perform(invocation, in: session)
        state.succeeded += 1
        let json = invocation.wantsJSON || session.outputMode == .json
        let text = renderer.render(result, command: invocation.command, json: json)
        if !text.isEmpty { output(text) }
        if result.quits { return state.statements.count }
      } catch {
        state.errors.append(error)
        report(error)
        if !options.keepGoing { return state.statements.count }
      }
      if let pendingStores, !pendingStores().isEmpty { return index }
    }
    return index
  }

  private func runAtomically(_ state: inout RunState) throws {
    var pending: [Device] = []
    session.storeOpened = { device in pending.append(device) }
    defer { session.storeOpened = nil }
    var originals: [(Device, Repositories.Library)] = []
    defer { for (device, library) in originals { device.library = library } }

    func nest(_ devices: [Device], from index: Int, state: inout RunState) throws {
      guard let device = devices.first else {
        let next = runCommands(&state, from: index, pendingStores: { pending })
        if next < state.statements.count || !pending.isEmpty {
          let opened = pending
          pending = []
          if !opened.isEmpty {
            try nest(opened, from: next, state: &state)
            return
          }
        }
        if !state.errors.isEmpty { throw Stop.failed }
        return
      }
      let original = device.library
      originals.append((device, original))
      try original.transaction { bound in
        device.library = bound
        try nest(Array(devices.dropFirst()), from: index, state: &state)
      }
    }
    try nest(session.devices, from: 0, state: &state)
  }

  /// The error on the diagnostics, and in JSON mode as a JSON line; what the command
  /// produced before it failed (``ScriptError/result``) is printed first.
  private func report(_ error: ScriptError) {
    let json = session.outputMode == .json || options.json
    if !json, let result = error.result {
      let text = renderer.render(result, command: error.command ?? "", json: false)
      if !text.isEmpty { output(text) }
    }
    diagnostics(Self.location(scriptName, error) + "error: " + error.description)
    if json { output(renderer.render(error, json: true)) }
  }
}
