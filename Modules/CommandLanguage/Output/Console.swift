import Foundation

/// Lines for standard output and standard error, each written at once and unbuffered,
/// so a file that takes both streams (`forager-batch script.forager > run.log 2>&1`)
/// holds them in the order they were written: an error after the output of the lines
/// that ran before it.
///
/// ```swift
/// Console.output("created category 'Produce'")
/// Console.error("script.forager:2: error: …")
/// ```
public enum Console {
  /// Writes `line` and a line break to standard output.
  public static func output(_ line: String) { write(line + "\n", to: .standardOutput) }

  /// Writes `line` and a line break to standard error.
  public static func error(_ line: String) { write(line + "\n", to: .standardError) }

  /// Writes `text` as it is to standard error (a progress line that redraws itself).
  public static func errorText(_ text: String) { write(text, to: .standardError) }

  /// A stream that is closed or full takes nothing; the program goes on.
  private static func write(_ text: String, to handle: FileHandle) {
    try? handle.write(contentsOf: Data(text.utf8))
  }
}
