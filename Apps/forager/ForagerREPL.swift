import ArgumentParser
import Foundation
import Scripting

/// `forager`: the interactive REPL. Reads lines (with readline on a terminal, plainly
/// otherwise), hands them to Scripting's ``ReplEngine``, prints what comes back.
@main
struct ForagerREPL: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forager",
    abstract: "Forager's interactive command shell.",
    discussion: """
      Type 'help' for the commands. Tab completes commands and names in the store;
      history is kept in the data directory. Ctrl-C cancels the line, Ctrl-D quits.
      Without --store or --memory, the store is forager.sqlite in $XDG_DATA_HOME/forager
      (or ~/.local/share/forager), created on first run.
      """,
    version: Forager.version
  )

  @Option(name: .long, help: ArgumentHelp("Use this SQLite store file (created when missing).", valueName: "path"))
  var store: String?

  @Flag(name: .long, help: "Use a fresh in-memory store (nothing is saved).")
  var memory = false

  func validate() throws {
    if store != nil && memory { throw ValidationError("give either --store or --memory, not both") }
  }

  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        if !message.isEmpty { Console.output(message) }
        Foundation.exit(0)
      }
      Console.error(message)
      Foundation.exit(code == .failure ? 1 : 2)
    }
  }

  func run() throws {
    let interactive = isatty(0) != 0
    let environment = ProcessInfo.processInfo.environment
    let colors = isatty(1) != 0 && environment["NO_COLOR"] == nil
    let location: String
    var banner: String
    if memory {
      location = "memory"
      banner = "store: in memory (nothing is saved)"
    } else if let store {
      location = Session.location(forStorePath: store)
      banner = "store: \(store)\(FileManager.default.fileExists(atPath: store) ? "" : " (new)")"
    } else {
      let created = try DefaultStore.prepare()
      let file = DefaultStore.storeFile()
      location = "sqlite:" + file.path
      banner = "store: \(file.path)\(created ? " (created)" : "")"
    }
    let session: Session
    do {
      session = try Session(location: location)
    } catch {
      throw ValidationError(error.description)
    }
    session.showsWritesFirst = true
    session.keepsUndo = true
    if isatty(2) != 0 {
      session.fileProgress = { Console.errorText(ProgressBar.line(done: $0, total: $1, item: $2)) }
    }
    let engine = ReplEngine(interpreter: Interpreter(session: session), renderer: Renderer(colors: colors))
    banner = "forager \(Forager.version) — \(banner)"
    // However the session ends, file stores are closed so no write-ahead log is left.
    defer {
      for problem in session.close() { Console.error("forager: warning: \(problem)") }
    }

    guard interactive else {
      Console.error(banner)
      while let line = Swift.readLine(strippingNewline: true) {
        // Live changes that arrived while the line was read are told before it runs.
        for notice in session.runLive() { Console.output(notice) }
        if handle(engine.feed(line)) { return }
      }
      if engine.isContinuing { _ = handle(engine.feed("end")) }
      return
    }

    Console.output(banner)
    Console.output("Type 'help' for commands, Tab to complete, Ctrl-D to quit.")
    try? FileManager.default.createDirectory(at: DefaultStore.directory(), withIntermediateDirectories: true)
    let editor = LineEditor(historyFile: DefaultStore.historyFile(), completer: Completer(session: session))
    // A command that runs until stopped (`watch list`) prints as it goes and ends on Ctrl-C.
    engine.show = { Console.output($0) }
    session.interruptRequested = { editor.takeInterrupt() }
    // Live sync (`sync live on`) runs while the prompt waits, on this thread, which owns the stores.
    let background = LineEditor.Background(
      descriptors: { session.liveWakeDescriptors }, timeoutMilliseconds: { session.liveTimeoutMilliseconds },
      run: { session.runLive() })
    while true {
      let prompt = engine.prompt
      let shown = colors && !engine.isContinuing ? "\u{01}\u{1B}[36m\u{02}\(prompt)\u{01}\u{1B}[0m\u{02}" : prompt
      switch editor.readLine(prompt: shown, background: background) {
      case .end:
        Console.output("")
        return
      case .interrupted:
        // Ctrl-C drops the line being typed and any continued command; the session goes on.
        engine.cancel()
      case .line(let line):
        editor.remember(line)
        if handle(engine.feed(line)) { return }
      }
    }
  }

  /// Prints a reply; returns whether the session ended.
  private func handle(_ reply: ReplEngine.Reply) -> Bool {
    if let output = reply.output { Console.output(output) }
    if let error = reply.error { Console.error(error) }
    return reply.quits
  }
}
