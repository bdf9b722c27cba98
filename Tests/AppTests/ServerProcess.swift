import Foundation
import ServerTestSupport
import SpawnSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A `forager-server serve` process on a free port of 127.0.0.1, over a database.
final class ServerProcess {
  let pid: Int32
  let url: String
  let log: URL
  private var ended = false

  /// Starts the server and waits (at most 30 s) until it says where it listens.
  init(databaseURL: String, directory: URL, name: String, arguments: [String] = [], within seconds: TimeInterval = 30) throws {
    log = directory.appendingPathComponent("\(name).log")
    pid = try Spawn.start(
      try Executables.url("forager-server").path, ["serve", "--port", "0", "--log-level", "warning"] + arguments, output: log.path,
      environment: ["DATABASE_URL": databaseURL])
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      if let range = text.range(of: #"listening on (http://127\.0\.0\.1:[0-9]+)"#, options: .regularExpression) {
        url = String(text[range].dropFirst("listening on ".count))
        return
      }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        ended = true
        throw TemporaryPostgres.Failure("forager-server exited before listening: \(text)")
      }
      if Date() > deadline {
        kill(pid, SIGKILL)
        throw TemporaryPostgres.Failure("forager-server did not listen within \(Int(seconds)) s: \(text)")
      }
      usleep(20_000)
    }
  }

  /// Stops the server with `signal` (SIGKILL: as a crash does) and waits for it to end.
  /// A server that has not ended 30 s after the signal is killed, and the test fails
  /// instead of waiting for it forever.
  func stop(_ signal: Int32 = SIGTERM) {
    guard !ended else { return }
    ended = true
    kill(pid, signal)
    do {
      _ = try Spawn.wait(pid, program: "forager-server", timeout: 30)
    } catch {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      Issue.record("forager-server did not stop after signal \(signal): \(error)\nits log ends:\n\(text.suffix(2_000))")
    }
  }

  deinit { stop(SIGKILL) }
}

/// Runs one `forager-server` administration command against a database.
@discardableResult
func serverAdmin(_ databaseURL: String, _ arguments: [String]) throws -> String {
  try Spawn.run(try Executables.url("forager-server").path, arguments, environment: ["DATABASE_URL": databaseURL])
}

/// One query's rows against a database, as `psql -tA` prints them; stops at the first error.
func psql(_ database: String, _ query: String) throws -> String {
  guard let bin = TemporaryPostgres.binDirectory else { throw TemporaryPostgres.Failure("no psql") }
  return try Spawn.run("\(bin)/psql", ["-tA", "-v", "ON_ERROR_STOP=1", "-d", database, "-c", query])
}

/// The refusal of a `forager-server` administration command that must fail: its message
/// (Spawn's failure names the exit status); records an issue when the command succeeds.
func serverAdminRefusal(_ database: String, _ arguments: [String]) -> String {
  do {
    let output = try serverAdmin(database, arguments)
    Issue.record("forager-server \(arguments.joined(separator: " ")) succeeded: \(output)")
    return ""
  } catch {
    return String(describing: error)
  }
}
