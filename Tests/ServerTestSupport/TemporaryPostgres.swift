import Foundation
import SpawnSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A throwaway PostgreSQL cluster for integration tests: `initdb` in a temporary
/// directory, `postgres` on a free port of 127.0.0.1 with trust authentication for the
/// user `forager`, one database per test (``createDatabase(_:)``).
///
/// PostgreSQL refuses to run as root; as root the cluster runs as the `postgres` user
/// (`runuser`), which Debian's package creates. The cluster stops when the test process
/// exits, and a watchdog process stops it and removes its directory if the test process
/// dies without exiting.
///
/// Tests that need it are enabled only when it can run (``unavailableReason`` is nil), so
/// a machine without PostgreSQL reports them as skipped:
///
/// ```swift
/// @Test(.enabled(if: TemporaryPostgres.unavailableReason == nil)) func pushes() async throws {
///   let url = try TemporaryPostgres.shared().createDatabase("pushes")
/// }
/// ```
public final class TemporaryPostgres: @unchecked Sendable {
  public let host = "127.0.0.1"
  public let port: Int
  public let username = "forager"
  let directory: String
  let bin: String
  private var stopped = false
  private let lock = NSLock()

  /// Where PostgreSQL's server programs are: `FORAGER_PG_BIN`, else the newest
  /// `/usr/lib/postgresql/*/bin` holding `initdb` and `pg_ctl`.
  public static let binDirectory: String? = {
    if let configured = ProcessInfo.processInfo.environment["FORAGER_PG_BIN"] { return configured }
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return versions.compactMap(Int.init).sorted(by: >).map { "\(root)/\($0)/bin" }
      .first {
        FileManager.default.isExecutableFile(atPath: "\($0)/initdb") && FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl")
      }
  }()

  /// Why no cluster can run here, or nil when one can.
  public static let unavailableReason: String? = {
    guard binDirectory != nil else { return "PostgreSQL's server programs (initdb, pg_ctl) are not installed (apt-get install postgresql)" }
    if getuid() == 0 {
      guard getpwnam("postgres") != nil else { return "running as root and there is no 'postgres' user to run PostgreSQL as" }
      guard
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") || FileManager.default.isExecutableFile(atPath: "/sbin/runuser")
      else { return "running as root without runuser to run PostgreSQL as 'postgres'" }
    }
    return nil
  }()

  private static let sharedLock = NSLock()
  nonisolated(unsafe) private static var sharedCluster: Result<TemporaryPostgres, any Error>?

  /// The process's cluster, started on first use and stopped when the process exits.
  public static func shared() throws -> TemporaryPostgres {
    try sharedLock.withLock {
      if let sharedCluster { return try sharedCluster.get() }
      let result = Result { try TemporaryPostgres.start() }
      sharedCluster = result
      if case .success = result { atexit { TemporaryPostgres.stopShared() } }
      return try result.get()
    }
  }

  private static func stopShared() {
    if case .success(let cluster) = sharedCluster { cluster.stop() }
  }

  /// Starts a new cluster (about 2 s). With `tls`, the server also speaks TLS, with a
  /// self-signed certificate for 127.0.0.1 (``certificatePath``); plain connections are
  /// still accepted, as on a server whose clients choose.
  /// With `durable`, every commit is flushed to disk before it is acknowledged (`fsync=on`,
  /// `synchronous_commit=on`, as a production server runs); otherwise the cluster runs
  /// with `fsync=off`, which the tests use (a crash of a throwaway cluster loses nothing
  /// anyone keeps).
  public static func start(tls: Bool = false, durable: Bool = false) throws -> TemporaryPostgres {
    guard let bin = binDirectory, unavailableReason == nil else { throw Failure(unavailableReason ?? "PostgreSQL is unavailable") }
    var template = Array("/tmp/forager-pg-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Failure("cannot create a temporary directory") }
    let directory = String(cString: made)
    if getuid() == 0 { try run("/bin/chown", ["postgres", directory]) }
    var lastError: (any Error)?
    for _ in 0..<3 {
      let port = try freePort()
      let cluster = TemporaryPostgres(port: port, directory: directory, bin: bin, tls: tls, durable: durable)
      do {
        try cluster.launch()
        return cluster
      } catch {
        lastError = error
        _ = try? cluster.asServer("\(bin)/pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
      }
    }
    try? FileManager.default.removeItem(atPath: directory)
    throw lastError ?? Failure("PostgreSQL did not start")
  }

  /// Whether the server speaks TLS (``start(tls:durable:)``).
  public let tls: Bool

  /// Whether commits are flushed to disk (``start(tls:durable:)``).
  public let durable: Bool

  private init(port: Int, directory: String, bin: String, tls: Bool, durable: Bool) {
    self.port = port
    self.directory = directory
    self.bin = bin
    self.tls = tls
    self.durable = durable
  }

  /// The server's self-signed certificate (PEM), its own root: a client that trusts it can
  /// verify the server (`sslmode=verify-full&sslrootcert=…`).
  public var certificatePath: String { "\(directory)/server.crt" }

  /// The server's options, the same at every start.
  private var serverOptions: String {
    let durability = durable ? "-c fsync=on -c synchronous_commit=on" : "-c fsync=off"
    var options = "-p \(port) -k \(directory) -c listen_addresses=\(host) \(durability) -c max_connections=100"
    if tls { options += " -c ssl=on -c ssl_cert_file=\(directory)/server.crt -c ssl_key_file=\(directory)/server.key" }
    return options
  }

  private func launch() throws {
    let data = "\(directory)/data"
    if !FileManager.default.fileExists(atPath: "\(data)/PG_VERSION") {
      try asServer("\(bin)/initdb", ["-D", data, "-A", "trust", "-U", username, "-E", "UTF8", "--no-sync"])
    }
    if tls && !FileManager.default.fileExists(atPath: certificatePath) {
      try asServer(
        "/usr/bin/openssl",
        [
          "req", "-new", "-x509", "-days", "2", "-nodes", "-newkey", "rsa:2048", "-subj", "/CN=\(host)",
          "-addext", "subjectAltName=IP:\(host)", "-keyout", "\(directory)/server.key", "-out", certificatePath,
        ])
      try asServer("/bin/chmod", ["600", "\(directory)/server.key"])
      try asServer("/bin/chmod", ["644", certificatePath])
    }
    try asServer("\(bin)/pg_ctl", ["-D", data, "-l", "\(directory)/log", "-w", "-t", "30", "-o", serverOptions, "start"])
    // The watchdog: stops the cluster if this process dies without running atexit.
    let me = getpid()
    let stopCommand = (getuid() == 0 ? "runuser -u postgres -- " : "") + "'\(bin)/pg_ctl' -D '\(data)' -m immediate -w stop"
    let script = "while kill -0 \(me) 2>/dev/null; do sleep 1; done; \(stopCommand) >/dev/null 2>&1; rm -rf '\(directory)'"
    _ = try Spawn.start("/bin/sh", ["-c", script])
  }

  /// Creates a database and returns its URL (`postgres://forager@127.0.0.1:PORT/NAME`).
  public func createDatabase(_ name: String) throws -> String {
    let database = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
    try Self.run("\(bin)/createdb", ["-h", host, "-p", String(port), "-U", username, database])
    return "postgres://\(username)@\(host):\(port)/\(database)"
  }

  /// The value of a server setting (`SHOW name`), as PostgreSQL reports it.
  public func setting(_ name: String) throws -> String {
    let output = try Self.run("\(bin)/psql", ["-h", host, "-p", String(port), "-U", username, "-At", "-c", "SHOW \(name)", "postgres"])
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Restarts the cluster on the same port, as an upgrade or a crash of the database
  /// would: every open connection is closed.
  public func restart() throws {
    try asServer(
      "\(bin)/pg_ctl",
      ["-D", "\(directory)/data", "-l", "\(directory)/log", "-m", "fast", "-w", "-t", "30", "-o", serverOptions, "restart"])
  }

  /// Stops the cluster's server and keeps its data, as a database that goes away does;
  /// ``resume()`` starts it again on the same port.
  public func pause() throws {
    try asServer("\(bin)/pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "-t", "30", "stop"])
  }

  /// Starts a paused cluster again on the same port.
  public func resume() throws {
    try asServer("\(bin)/pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "30", "-o", serverOptions, "start"])
  }

  /// Stops the cluster and removes its directory.
  public func stop() {
    lock.withLock {
      guard !stopped else { return }
      stopped = true
      _ = try? asServer("\(bin)/pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "stop"])
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// The cluster's server log, for a failing test's message.
  public var log: String { (try? String(contentsOfFile: "\(directory)/log", encoding: .utf8)) ?? "" }

  @discardableResult
  private func asServer(_ program: String, _ arguments: [String]) throws -> String {
    if getuid() == 0 { return try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments) }
    return try Self.run(program, arguments)
  }

  @discardableResult
  static func run(_ program: String, _ arguments: [String]) throws -> String { try Spawn.run(program, arguments) }

  /// A port on 127.0.0.1 that nothing listens on now.
  public static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure("cannot open a socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw Failure("cannot bind a socket on 127.0.0.1") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }
}
