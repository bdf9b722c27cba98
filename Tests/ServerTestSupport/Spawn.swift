import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs programs for the throwaway cluster with no descriptor of this process but the
/// standard three.
///
/// Foundation's `Process` leaves the child every descriptor it does not mark close-on-exec,
/// including the socket by which it learns that a child exited. `pg_ctl start` leaves the
/// PostgreSQL server running, the server keeps what it inherited, and a `Process` running
/// `pg_ctl` (or anything started while the server's command was being spawned) then never
/// sees its child exit. `posix_spawn` with `addclosefrom_np` (glibc 2.34) passes nothing on.
public enum Spawn {
  private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  /// Looked up at run time: Swift's Glibc module does not declare this GNU extension.
  private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    .map { unsafeBitCast($0, to: CloseFrom.self) }

  /// Runs `program` to its end; its output (standard output and error) goes to a file and
  /// is returned. Throws when it cannot start or exits with another status than 0.
  @discardableResult
  public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    var template = Array("/tmp/forager-spawn-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw TemporaryPostgres.Failure("cannot create a file for \(name(program))'s output") }
    close(fd)
    let outputPath = String(cString: template)
    defer { unlink(outputPath) }
    let pid = try start(program, arguments, output: outputPath, environment: environment)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw TemporaryPostgres.Failure("waiting for \(name(program)) failed (errno \(errno))") }
    }
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    guard exited, code == 0 else {
      let how = exited ? "exited with \(code)" : "was stopped by signal \(status & 0x7f)"
      throw TemporaryPostgres.Failure("\(name(program)) \(how): \(text.suffix(2_000))")
    }
    return text
  }

  /// Starts `program` and leaves it running (its output goes to `output`).
  public static func start(
    _ program: String, _ arguments: [String], output: String = "/dev/null", environment: [String: String] = [:]
  ) throws -> Int32 {
    guard let closeFrom else {
      throw TemporaryPostgres.Failure("this C library cannot close descriptors in a spawned program (glibc 2.34 or newer)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND | O_CREAT, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    _ = closeFrom(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    var variables = ProcessInfo.processInfo.environment
    variables.merge(environment) { $1 }
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    let failure = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard failure == 0 else { throw TemporaryPostgres.Failure("cannot start \(program): \(String(cString: strerror(failure)))") }
    return pid
  }

  /// Waits at most `timeout` seconds for a started program to end, killing it then; its
  /// exit status (128 + the signal when a signal ended it).
  public static func wait(_ pid: Int32, program: String, timeout: Double) throws -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if waited == -1, errno != EINTR { throw TemporaryPostgres.Failure("waiting for \(name(program)) failed (errno \(errno))") }
      if Date() > deadline {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw TemporaryPostgres.Failure("\(name(program)) did not end within \(Int(timeout)) s")
      }
      usleep(10_000)
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  private static func name(_ program: String) -> String { (program as NSString).lastPathComponent }
}
