import Foundation
import SpawnSupport

/// Runs a program that may leave a daemon behind (tmux starts its server from the first
/// client), without Foundation's `Process`.
///
/// `Process` learns that a child ended when a socket the child inherited is closed; a
/// daemon forked by the child inherits that socket too and keeps it open, so
/// `waitUntilExit()` never returns. `Spawn` gives the child only standard input, output and
/// error, and waits with `waitpid`, for at most `timeout` seconds before killing it.
func runDetachedProgram(_ path: String, _ arguments: [String], stdout: URL, timeout: TimeInterval = 30) throws -> Int32 {
  try Data().write(to: stdout)
  let pid = try Spawn.start(path, arguments, output: stdout.path)
  return try Spawn.wait(pid, program: path, timeout: timeout)
}
