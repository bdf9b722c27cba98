import ArgumentParser
import CommandLanguage
import Foundation
import Scripting

/// `forager-batch`: runs a command script (a file or stdin) and exits with a code that
/// says how it went. All the work is in `Scripting`; this file reads the arguments,
/// wires files and terminals, and decides the exit code.
@main
struct ForagerBatch: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forager-batch",
    abstract: "Run a Forager command script.",
    discussion: """
      Runs each command of SCRIPT (or standard input) in order. On an error it prints
      SCRIPT:LINE: error: … to standard error and stops, unless --keep-going.
      A script with a syntax error runs nothing.
      With --undo-file PATH the undo of every command that changed records is written to
      PATH as it runs; `forager-batch` or the REPL applies it with `undo --file PATH`.

      Exit codes:
        0  every command succeeded
        1  a command failed
        2  usage: bad arguments, an unreadable script, or syntax errors in the script
        3  an expect command did not hold

      Without --store or --memory the default store is used: forager.sqlite in
      $XDG_DATA_HOME/forager (or ~/.local/share/forager).
      """,
    version: Forager.version
  )

  @Argument(help: "The script file; '-' or nothing reads standard input.")
  var script: String?

  @Option(name: .long, help: ArgumentHelp("Use this SQLite store file (created when missing).", valueName: "path"))
  var store: String?

  @Flag(name: .long, help: "Use a fresh in-memory store.")
  var memory = false

  @Flag(name: .long, help: "Print every result as JSON, one object per line.")
  var json = false

  @Flag(name: .customLong("keep-going"), help: "Run the remaining commands after a failure (exit code: the first failure's).")
  var keepGoing = false

  @Flag(name: .customLong("dry-run"), help: "Only parse the script and report every syntax error; touch no store.")
  var dryRun = false

  @Flag(name: .long, help: "Keep no change unless the whole script succeeds (one transaction per device store).")
  var atomic = false

  @Option(
    name: .customLong("undo-file"),
    help: ArgumentHelp(
      "Write the undo of what the script changes to this file (rewritten after each command); `undo --file PATH` applies it.",
      valueName: "path"))
  var undoFile: String?

  @Flag(name: .long, help: "Replace the --undo-file when it exists.")
  var force = false

  static func main() {
    let code: Int32
    do {
      var command = try parseAsRoot()
      if let batch = command as? ForagerBatch {
        code = batch.execute()
      } else {
        try command.run()
        code = ExitCodes.success
      }
    } catch {
      code = ExitCodes.code(forParserCode: exitCode(for: error).rawValue)
      let message = fullMessage(for: error)
      if code == ExitCodes.success {
        if !message.isEmpty { Console.output(message) }
      } else {
        Console.error(message)
      }
    }
    Foundation.exit(code)
  }

  func validate() throws {
    if let problem = StoreLocation.conflict(store: store, memory: memory) { throw ValidationError(problem) }
    if undoFile != nil && atomic {
      throw ValidationError("--undo-file and --atomic do not go together: an atomic run keeps nothing unless it all succeeds")
    }
    if force && undoFile == nil { throw ValidationError("--force replaces an existing --undo-file; give --undo-file PATH") }
  }

  /// Runs the script and returns the exit code.
  func execute() -> Int32 {
    let name = script.flatMap { $0 == "-" ? nil : $0 } ?? "<stdin>"
    let data: Data
    if let path = script, path != "-" {
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        let reason =
          FileManager.default.fileExists(atPath: path) ? "it cannot be read (\((error as NSError).localizedDescription))" : "no such file"
        Self.printError("forager-batch: cannot read script '\(path)': \(reason)")
        return ExitCodes.usage
      }
    } else {
      data = FileHandle.standardInput.readDataToEndOfFile()
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      Self.printError("forager-batch: \(name) is not UTF-8 text: \(Self.firstInvalidByte(in: data))")
      return ExitCodes.usage
    }

    if dryRun {
      let report = ScriptRunner.check(text, scriptName: name, diagnostics: Self.printError)
      let summary =
        report.errors.isEmpty
        ? "\(name): \(report.commands) commands, no errors"
        : "\(name): \(report.errors.count) error\(report.errors.count == 1 ? "" : "s")"
      Self.printError(summary)
      return ExitCodes.code(for: report.status)
    }

    var undo: UndoFile?
    if let undoFile {
      do {
        undo = try UndoFile(path: undoFile, force: force)
      } catch {
        Self.printError("forager-batch: --undo-file: \(error.description); nothing ran")
        return ExitCodes.usage
      }
    }
    let location: StoreLocation
    do {
      location = try StoreLocation(store: store, memory: memory)
    } catch {
      Self.printError("forager-batch: \(error)")
      return ExitCodes.failure
    }
    let session: Session
    do {
      session = try Session(location: location.location)
    } catch {
      Self.printError("forager-batch: error: \(error.description)")
      return ExitCodes.failure
    }
    session.undoFile = undo
    let progress: ((Int, Int) -> Void)? = isatty(2) != 0 ? { Self.showProgress($0, $1) } : nil
    if isatty(2) != 0 {
      session.fileProgress = { Console.errorText(ProgressBar.line(done: $0, total: $1, item: $2)) }
    }
    let runner = ScriptRunner(
      session: session,
      options: .init(keepGoing: keepGoing, atomic: atomic, json: json, colors: false),
      scriptName: name,
      output: Console.output,
      diagnostics: Self.printError,
      progress: progress
    )
    let report = runner.run(text)
    for problem in session.close() { Self.printError("forager-batch: warning: \(problem)") }
    return ExitCodes.code(for: report.status)
  }

  /// Where a script stops being UTF-8: "byte 0xFF at line 3, column 5".
  static func firstInvalidByte(in data: Data) -> String {
    let bytes = [UInt8](data)
    var line = 1, lineStart = 0, index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
      let sequence = length > 0 && index + length <= bytes.count ? Array(bytes[index..<index + length]) : []
      if sequence.isEmpty || String(validating: sequence, as: UTF8.self) == nil {
        let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
        return "byte 0x" + String(lead, radix: 16, uppercase: true) + " at line \(line), column \(column)"
      }
      if lead == 0x0A {
        line += 1
        lineStart = index + 1
      }
      index += length
    }
    return "an incomplete character at the end"
  }

  static func printError(_ line: String) {
    Console.error(line)
  }

  /// "[12/340]" on the terminal's last line, cleared when done.
  static func showProgress(_ done: Int, _ total: Int) {
    guard total >= 20 else { return }
    let text = done >= total ? "\r\u{1B}[K" : "\r[\(done)/\(total)]"
    Console.errorText(text)
  }
}
