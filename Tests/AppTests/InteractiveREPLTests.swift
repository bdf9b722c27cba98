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

  /// Waits until the pane shows `text` (or gives up after about 15 seconds). tmux drops
  /// the blanks that end a line, so wait for "forager>", not the prompt's "forager> ".
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
    #expect(try waitFor("forager>", in: session).contains("(created)"))

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

  /// Two REPLs on one cloud file, both live: a write in one shows in the other as a one-line
  /// notice while a line is being typed there, and the typed text is kept (issue 35).
  @Test(.enabled(if: installedTmux != nil, "tmux is not installed (apt-get install tmux)"), .timeLimit(.minutes(3)))
  func aLiveNoticeKeepsTheLineBeingTyped() throws {
    let data = try TemporaryDirectory.make()
    let cloud = data.appendingPathComponent("cloud.sqlite").path
    let forager = try Executables.url("forager").path
    let id = UUID().uuidString.prefix(8)
    let (a, b) = ("forager-live-a-\(id)", "forager-live-b-\(id)")
    defer { _ = try? tmux("kill-server") }
    for (session, store) in [(a, "a.sqlite"), (b, "b.sqlite")] {
      let path = data.appendingPathComponent(store).path
      _ = try tmux(
        "new-session", "-d", "-s", session, "-x", "160", "-y", "40",
        "env XDG_DATA_HOME=\(data.path) NO_COLOR=1 \(forager) --store \(path)")
      _ = try waitFor("forager>", in: session)
      _ = try tmux("send-keys", "-t", session, "cloud open \(cloud)", "Enter")
      _ = try waitFor("using cloud", in: session)
      _ = try tmux("send-keys", "-t", session, "sync live on", "Enter")
      #expect(try waitFor("is live on", in: session).contains("is live on"))
    }
    // b starts typing and stops mid-line; a writes, without typing sync.
    _ = try tmux("send-keys", "-t", b, "category add Half")
    _ = try waitFor("category add Half", in: b)
    _ = try tmux("send-keys", "-t", a, "category add Dairy", "Enter")
    // "· " starts only notices (the `sync live on` message also says "from the household").
    let screen = try waitFor("· ", in: b)
    #expect(screen.contains("· 1 change from the household") || screen.contains("changes from the household"), "\(screen)")
    // The notice is above the prompt, which shows the typed text as it was.
    let lines = screen.split(separator: "\n").map(String.init)
    #expect(lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == "forager> category add Half", "\(screen)")
    #expect(lines.contains { $0.hasPrefix("· ") && $0.hasSuffix("from the household") }, "the notice has a line of its own: \(screen)")
    // Finishing the line runs it; b already has a's category.
    _ = try tmux("send-keys", "-t", b, "way", "Enter")
    _ = try waitFor("'Halfway'", in: b)
    _ = try tmux("send-keys", "-t", b, "expect exists category Dairy", "Enter")
    let last = try waitFor("ok: category 'Dairy' exists", in: b)
    #expect(last.contains("ok: category 'Dairy' exists"), "\(last)")
  }

  /// `watch list` in a REPL shows the list again when another process (forager-batch on the
  /// same store file) adds an item, and Ctrl-C ends the watch, not the REPL.
  @Test(.enabled(if: installedTmux != nil, "tmux is not installed (apt-get install tmux)"), .timeLimit(.minutes(3)))
  func aWatchedListShowsAnotherProcessesWriteUntilCtrlC() throws {
    let data = try TemporaryDirectory.make()
    let store = data.appendingPathComponent("kitchen.sqlite")
    let forager = try Executables.url("forager").path
    let session = "forager-watch-\(UUID().uuidString.prefix(8))"
    defer { _ = try? tmux("kill-server") }
    _ = try tmux(
      "new-session", "-d", "-s", session, "-x", "160", "-y", "40",
      "env XDG_DATA_HOME=\(data.path) NO_COLOR=1 \(forager) --store \(store.path)")
    _ = try waitFor("forager>", in: session)
    _ = try tmux("send-keys", "-t", session, "list new Week", "Enter")
    _ = try waitFor("created list 'Week'", in: session)
    _ = try tmux("send-keys", "-t", session, "watch list Week", "Enter")
    _ = try waitFor("no items", in: session)

    let batch = try runProcess("forager-batch", ["--store", store.path, "-"], input: "list add 12 eggs to Week\n")
    #expect(batch.status == 0, "\(batch.stderr)")
    let shown = try waitFor("eggs", in: session)
    #expect(shown.contains("Uncategorized  eggs  12"), "\(shown)")

    _ = try tmux("send-keys", "-t", session, "C-c")
    let ended = try waitFor("stopped by Ctrl-C", in: session)
    #expect(ended.contains("watch of list 'Week' ended: stopped by Ctrl-C after"), "\(ended)")
    // The REPL goes on.
    _ = try tmux("send-keys", "-t", session, "category add Afterwards", "Enter")
    #expect(try waitFor("'Afterwards'", in: session).contains("'Afterwards'"))
  }
}
