import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the programs tests start with no descriptor of the test process but the standard
/// three, and waits for them with `waitpid`.
///
/// Foundation's `Process` leaves the child every descriptor it does not mark close-on-exec,
/// including the socket by which it learns that a child exited. Tests run side by side in
/// one process, so a program started by one test (`pg_ctl start` leaves the PostgreSQL
/// server running, tmux starts its server from the first client, `swift build` runs for a
/// minute) keeps another test's socket open, and that test's `Process` never sees its child
/// exit. `posix_spawn` with `addclosefrom_np` (glibc 2.34) passes nothing on.
public enum Spawn {
  private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
  /// Looked up at run time: Swift's Glibc module does not declare these GNU extensions.
  private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    .map { unsafeBitCast($0, to: CloseFrom.self) }
  private static let changeDirectory: ChangeDirectory? = dlsym(
    UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np"
  )
  .map { unsafeBitCast($0, to: ChangeDirectory.self) }

  /// Why a program could not be started, waited for, or ended badly.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// Runs `program` to its end; its output (standard output and error) goes to a file and
  /// is returned. Throws when it cannot start or exits with another status than 0.
  @discardableResult
  public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    var template = Array("/tmp/forager-spawn-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw Failure("cannot create a file for \(name(program))'s output") }
    close(fd)
    let outputPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(outputPath) }
    let pid = try start(program, arguments, output: outputPath, environment: environment)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw Failure("waiting for \(name(program)) failed (errno \(errno))") }
    }
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    guard exited, code == 0 else {
      let how = exited ? "exited with \(code)" : "was stopped by signal \(status & 0x7f)"
      throw Failure("\(name(program)) \(how): \(text.suffix(2_000))")
    }
    return text
  }

  /// Starts `program` (an absolute path) and leaves it running.
  ///
  /// - Parameters:
  ///   - input: the file its standard input reads.
  ///   - output: the file its standard output is appended to.
  ///   - error: the file its standard error is appended to; nil sends it to `output`.
  ///   - environment: added to (and overriding) this process's environment.
  ///   - directory: its working directory; nil keeps this process's.
  ///   - ownProcessGroup: starts it in a process group of its own, so ``wait(_:program:timeout:)``
  ///     stops everything it started when it runs out of time.
  public static func start(
    _ program: String, _ arguments: [String], input: String = "/dev/null", output: String = "/dev/null", error: String? = nil,
    environment: [String: String] = [:], directory: String? = nil, ownProcessGroup: Bool = false
  ) throws -> Int32 {
    guard let closeFrom else {
      throw Failure("this C library cannot close descriptors in a spawned program (glibc 2.34 or newer)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND | O_CREAT, 0o600)
    if let error {
      posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_APPEND | O_CREAT, 0o600)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    _ = closeFrom(&actions, 3)
    if let directory {
      guard let changeDirectory else { throw Failure("this C library cannot start a program in another directory") }
      _ = changeDirectory(&actions, directory)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A program starts as from a shell: no signal blocked, every one at its default. The
    // test runner's threads block most signals, and a child inherits the mask of the
    // thread that spawns it: a tmux server started so never hears its panes end, and
    // its panes never hear the hang-up that `kill-server` sends.
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    if ownProcessGroup {
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    var variables = ProcessInfo.processInfo.environment
    variables.merge(environment) { $1 }
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    let failure = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard failure == 0 else { throw Failure("cannot start \(program): \(String(cString: strerror(failure)))") }
    return pid
  }

  /// Waits at most `timeout` seconds for a started program to end, killing it (and its
  /// process group, when it leads one) then; its exit status (128 + the signal when a
  /// signal ended it). Blocks the calling thread: from async code, use
  /// ``waitOffTheTaskPool(_:program:timeout:)``.
  public static func wait(_ pid: Int32, program: String, timeout: Double) throws -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if waited == -1, errno != EINTR { throw Failure("waiting for \(name(program)) failed (errno \(errno))") }
      if Date() > deadline {
        if getpgid(pid) == pid { kill(-pid, SIGKILL) }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw Failure("\(name(program)) did not end within \(Int(timeout)) s")
      }
      usleep(10_000)
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// ``wait(_:program:timeout:)`` on a thread of its own, so a program that runs for
  /// minutes holds none of the few threads the test run's async work shares.
  public static func waitOffTheTaskPool(_ pid: Int32, program: String, timeout: Double) async throws -> Int32 {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        continuation.resume(with: Result { try wait(pid, program: program, timeout: timeout) })
      }
      thread.start()
    }
  }

  private static func name(_ program: String) -> String { (program as NSString).lastPathComponent }
}
