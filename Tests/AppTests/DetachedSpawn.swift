import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program that may leave a daemon behind (tmux starts its server from the first
/// client), without Foundation's `Process`.
///
/// `Process` learns that a child ended when a socket the child inherited is closed; a
/// daemon forked by the child inherits that socket too and keeps it open, so
/// `waitUntilExit()` never returns. Here the child gets only standard input, output and
/// error (every other descriptor is closed in it), and the parent waits with `waitpid`,
/// for at most `timeout` seconds before killing it.
func runDetachedProgram(_ path: String, _ arguments: [String], stdout: URL, timeout: TimeInterval = 30) throws -> Int32 {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  guard let closeFrom = DetachedSpawn.addCloseFrom else { throw DetachedSpawn.Failure(reason: "posix_spawn_file_actions_addclosefrom_np is missing (glibc ≥ 2.34)") }
  guard closeFrom(&actions, 3) == 0 else { throw DetachedSpawn.Failure(reason: "cannot close inherited descriptors") }

  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
  guard spawned == 0 else { throw DetachedSpawn.Failure(reason: "posix_spawn \(path): \(String(cString: strerror(spawned)))") }

  let deadline = Date().addingTimeInterval(timeout)
  var status: Int32 = 0
  while true {
    let waited = waitpid(pid, &status, WNOHANG)
    if waited == pid { break }
    if waited == -1, errno != EINTR { throw DetachedSpawn.Failure(reason: "waitpid \(path): \(String(cString: strerror(errno)))") }
    if Date() > deadline {
      kill(pid, SIGKILL)
      _ = waitpid(pid, &status, 0)
      throw DetachedSpawn.Failure(reason: "\(path) \(arguments.joined(separator: " ")) did not end within \(Int(timeout)) s")
    }
    usleep(10_000)
  }
  // WIFEXITED / WEXITSTATUS, which Swift does not import.
  return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

enum DetachedSpawn {
  struct Failure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
  }

  typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which its Swift module does not export.
  static let addCloseFrom: AddCloseFrom? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()
}
