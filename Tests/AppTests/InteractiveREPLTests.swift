import Foundation
import TestSupport
import Testing

/// The tmux binary, when one is installed.
private let installedTmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Drives the REPL on a real terminal through tmux: completion, Ctrl-C, Ctrl-D, history.
@Suite(.serialized) struct InteractiveREPLTests {
  /// A tmux server of the test's own, not the user's.
  static let socketName = "forager-test-\(getpid())"

  static var tmux: String? { installedTmux }

  func tmux(_ arguments: String...) throws -> String {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("forager-tmux-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    // Not `Process`: the first client starts the tmux server, which would inherit the
    // descriptor `Process` watches for the client's end (see runDetachedProgram).
    _ = try runDetachedProgram(Self.tmux ?? "tmux", ["-L", Self.socketName] + arguments, stdout: output)
    return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
  }

  /// Waits until the pane shows `text` (or gives up after about 15 seconds).
  func waitFor(_ text: String, in session: String) throws -> String {
    var screen = ""
    for _ in 0..<150 {
      screen = try tmux("capture-pane", "-p", "-t", session)
      if screen.contains(text) { return screen }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return screen
  }

  /// Reported as skipped by the test runner where tmux is missing (`Scripts/setup.sh`
  /// installs it, so the test command runs it).
  @Test(.enabled(if: installedTmux != nil, "tmux is not installed (apt-get install tmux)"))
  func completionCtrlCAndCtrlDOnARealTerminal() throws {
    let data = try TemporaryDirectory.make()
    let forager = try Executables.url("forager").path
    let session = "forager-test-\(UUID().uuidString.prefix(8))"
    _ = try tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "40", "env XDG_DATA_HOME=\(data.path) NO_COLOR=1 \(forager)")
    defer { _ = try? tmux("kill-server") }
    #expect(try waitFor("forager> ", in: session).contains("(created)"))

    _ = try tmux("send-keys", "-t", session, "seed sample", "Enter")
    _ = try waitFor("seeded", in: session)

    // Tab completes a command word and a recipe name with spaces (quoted).
    _ = try tmux("send-keys", "-t", session, "reci", "Tab")
    #expect(try waitFor("forager> recipe", in: session).contains("forager> recipe"))
    _ = try tmux("send-keys", "-t", session, "show Egg", "Tab")
    #expect(try waitFor("\"Egg Fried Rice\"", in: session).contains("recipe show \"Egg Fried Rice\""))
    _ = try tmux("send-keys", "-t", session, "Enter")
    #expect(try waitFor("The Wok p.89", in: session).contains("The Wok p.89"))

    // Ctrl-C drops the line being typed; the program goes on.
    _ = try tmux("send-keys", "-t", session, "category add Abandoned")
    _ = try waitFor("Abandoned", in: session)
    _ = try tmux("send-keys", "-t", session, "C-c")
    _ = try tmux("send-keys", "-t", session, "expect missing category Abandoned", "Enter")
    #expect(try waitFor("ok: no category 'Abandoned'", in: session).contains("ok: no category 'Abandoned'"))
    // Ctrl-C during a command continued with '\' drops the whole command, and the prompt is
    // the primary one again.
    _ = try tmux("send-keys", "-t", session, "category add Continued \\", "Enter")
    _ = try waitFor("...> ", in: session)
    _ = try tmux("send-keys", "-t", session, "C-c")
    _ = try tmux("send-keys", "-t", session, "expect missing category Continued", "Enter")
    #expect(try waitFor("ok: no category 'Continued'", in: session).contains("ok: no category 'Continued'"))

    // Ctrl-D exits cleanly and the history is saved in the data directory.
    _ = try tmux("send-keys", "-t", session, "C-d")
    var exited = false
    for _ in 0..<50 {
      if try tmux("list-sessions", "-F", "#{session_name}").contains(session) {
        Thread.sleep(forTimeInterval: 0.1)
      } else {
        exited = true
        break
      }
    }
    #expect(exited, "Ctrl-D should end the REPL")
    let history = try String(contentsOf: data.appendingPathComponent("forager/history"), encoding: .utf8)
    #expect(history.contains("seed sample"))
    #expect(!history.contains("Abandoned\n") || history.contains("expect missing category Abandoned"))
  }
}
