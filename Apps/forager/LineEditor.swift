@preconcurrency import CReadline
import Foundation
import Scripting

/// GNU readline: line editing, persistent history and tab completion.
///
/// Readline's callbacks are C functions without context, so the completer and the line
/// being read live in static storage; the REPL has one editor, used from one thread.
///
/// Lines are read with readline's callback interface from a `poll` loop, so Ctrl-C can be
/// handled outside the signal handler: the handler (`forager_on_interrupt`, in C) only
/// writes a byte to a pipe; the loop sees it, drops the line being typed and returns
/// ``Input/interrupted``.
final class LineEditor {
  /// What one read gave.
  enum Input: Equatable {
    case line(String)
    /// Ctrl-C: the line being typed was dropped.
    case interrupted
    /// Ctrl-D on an empty line, or the end of input.
    case end
  }

  nonisolated(unsafe) static var completer: Completer?
  nonisolated(unsafe) static var matches: [String] = []
  nonisolated(unsafe) static var matchIndex = 0
  /// The line readline's callback handed over, once one is complete.
  nonisolated(unsafe) static var finished: Input?

  let historyFile: URL?
  private let interruptRead: Int32

  init(historyFile: URL?, completer: Completer) {
    self.historyFile = historyFile
    Self.completer = completer
    rl_readline_name = UnsafePointer(strdup("forager"))
    rl_completer_word_break_characters = UnsafePointer(strdup(" \t\n"))
    rl_completer_quote_characters = UnsafePointer(strdup("\"'"))
    rl_attempted_completion_function = { text, start, _ in
      rl_attempted_completion_over = 1
      guard let text, let buffer = rl_line_buffer else { return nil }
      let word = String(cString: text)
      let line = Array(String(cString: buffer).utf8)
      let before = String(decoding: line.prefix(max(0, Int(start))), as: UTF8.self)
      let inQuote = rl_completion_quote_character != 0
      LineEditor.matches = LineEditor.completer?.candidates(before: before, word: word, inQuote: inQuote) ?? []
      if LineEditor.matches.isEmpty { return nil }
      return rl_completion_matches(text) { _, state in
        if state == 0 { LineEditor.matchIndex = 0 }
        guard LineEditor.matchIndex < LineEditor.matches.count else { return nil }
        defer { LineEditor.matchIndex += 1 }
        return strdup(LineEditor.matches[LineEditor.matchIndex])
      }
    }
    // Ctrl-C: readline's own handler would re-raise the signal and end the program.
    rl_catch_signals = 0
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
      forager_interrupt_fd = ends[1]
    }
    interruptRead = ends[0]
    signal(SIGINT, forager_on_interrupt)
    // The Swift runtime starts with these blocked on the main thread. Let SIGINT through to
    // its handler, and a hang-up or terminate to their default, ending the program: a
    // closed terminal must not leave a live REPL polling its cloud with nobody at it.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in [SIGINT, SIGHUP, SIGTERM] { sigaddset(&unblocked, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    using_history()
    stifle_history(1000)
    if let historyFile { read_history(historyFile.path) }
  }

  /// Whether Ctrl-C was pressed since the last call or line read (draining the notice):
  /// what ends a command that runs until stopped (`watch list`).
  func takeInterrupt() -> Bool {
    var drained = [UInt8](repeating: 0, count: 64)
    var pressed = false
    while read(interruptRead, &drained, drained.count) > 0 { pressed = true }
    return pressed
  }

  /// What the editor watches besides the terminal while it waits for a line: live sync's
  /// descriptors, how long until its timed work, and the work itself, which returns
  /// one-line notices to print above the line being typed.
  struct Background {
    var descriptors: () -> [Int32]
    var timeoutMilliseconds: () -> Int32
    var run: () -> [String]
  }

  /// The next line, a Ctrl-C, or the end of input. While waiting, `background`'s work runs
  /// when its descriptors wake or its timeout passes; its notices are printed above the
  /// prompt and the line being typed is drawn again, as it was.
  func readLine(prompt: String, background: Background? = nil) -> Input {
    Self.finished = nil
    rl_callback_handler_install(prompt) { raw in
      // Called by readline when a line is complete (nil: end of input).
      guard let raw else {
        LineEditor.finished = .end
        return
      }
      LineEditor.finished = .line(String(cString: raw))
      free(raw)
    }
    defer { rl_callback_handler_remove() }
    var descriptors = [
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: interruptRead, events: Int16(POLLIN), revents: 0),
    ]
    let fixed = descriptors.count
    while Self.finished == nil {
      descriptors.removeSubrange(fixed...)
      descriptors += (background?.descriptors() ?? []).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let ready = poll(&descriptors, nfds_t(descriptors.count), background?.timeoutMilliseconds() ?? -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .end
      }
      if let background, ready == 0 || descriptors[fixed...].contains(where: { $0.revents != 0 }) {
        Self.show(background.run())
      }
      if descriptors[1].revents & Int16(POLLIN) != 0 {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(interruptRead, &drained, drained.count) > 0 {}
        // Outside the signal handler: drop the typed line and leave readline's state clean.
        rl_replace_line("", 0)
        rl_point = 0
        _ = write(STDOUT_FILENO, "\n", 1)
        return .interrupted
      }
      if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { rl_callback_read_char() }
    }
    return Self.finished ?? .end
  }

  /// Prints notices above the prompt without breaking the line being typed: the visible
  /// line is cleared, the notices printed, and readline draws the prompt and the typed
  /// text (and the cursor's place in it) again.
  static func show(_ notices: [String]) {
    guard !notices.isEmpty else { return }
    // Readline writes through its own stream: flush it so the clearing comes first.
    rl_clear_visible_line()
    fflush(rl_outstream ?? stdout)
    let text = notices.joined(separator: "\n") + "\n"
    text.withCString { _ = write(STDOUT_FILENO, $0, strlen($0)) }
    rl_on_new_line()
    rl_forced_update_display()
  }

  func remember(_ line: String) {
    guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    add_history(line)
    if let historyFile { write_history(historyFile.path) }
  }
}
