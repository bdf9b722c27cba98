@preconcurrency import CReadline
import Foundation
import Scripting

/// GNU readline: line editing, persistent history and tab completion.
///
/// Readline's callbacks are C functions without context, so the completer and the
/// prompt live in static storage; the REPL has one editor, used from one thread.
final class LineEditor {
  nonisolated(unsafe) static var completer: Completer?
  nonisolated(unsafe) static var matches: [String] = []
  nonisolated(unsafe) static var primaryPrompt: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) static var interrupted = false

  let historyFile: URL?

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
    // Ctrl-C: drop the line being typed and show a fresh prompt; the program goes on.
    // Readline's own handler would re-raise the signal and end the program.
    rl_catch_signals = 0
    // The Swift runtime starts with SIGINT blocked on the main thread; let it through.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    signal(SIGINT) { _ in
      LineEditor.interrupted = true
      _ = write(1, "\n", 1)
      rl_on_new_line()
      rl_replace_line("", 0)
      if let prompt = LineEditor.primaryPrompt { rl_set_prompt(prompt) }
      rl_redisplay()
    }
    using_history()
    stifle_history(1000)
    if let historyFile { read_history(historyFile.path) }
  }

  nonisolated(unsafe) static var matchIndex = 0

  /// The next line, or nil at end of input (Ctrl-D).
  func readLine(prompt: String, primary: String) -> String? {
    free(Self.primaryPrompt)
    Self.primaryPrompt = strdup(primary)
    guard let raw = readline(prompt) else { return nil }
    defer { free(raw) }
    return String(cString: raw)
  }

  func remember(_ line: String) {
    guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    add_history(line)
    if let historyFile { write_history(historyFile.path) }
  }
}
