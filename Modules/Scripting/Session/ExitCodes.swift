/// The exit codes of both front ends, in one place. `forager-batch --help` lists them.
public enum ExitCodes {
  /// Every command succeeded (or `--help`, `--version`).
  public static let success: Int32 = 0
  /// A command failed, or the store could not be opened.
  public static let failure: Int32 = 1
  /// Bad arguments, an unreadable script, or syntax and usage errors in it; nothing ran.
  public static let usage: Int32 = 2
  /// An `expect` command did not hold.
  public static let expectationFailed: Int32 = 3

  /// The code of a script run's outcome.
  public static func code(for status: ScriptRunner.Status) -> Int32 {
    switch status {
    case .success: success
    case .commandFailed: failure
    case .usage: usage
    case .expectationFailed: expectationFailed
    }
  }

  /// The code of the argument parser's outcome, given the parser's own code: success
  /// stays success, a failure while running stays a failure, and anything else (a
  /// validation error) is a usage error.
  public static func code(forParserCode code: Int32) -> Int32 {
    code == success ? success : code == failure ? failure : usage
  }
}
