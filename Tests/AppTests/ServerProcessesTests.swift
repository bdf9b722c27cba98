import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `forager` devices in separate processes sync through `forager-server` processes on a
/// real PostgreSQL: two server instances on one database serve the same household, a
/// server killed in the middle of a push loses nothing and stores nothing twice.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct ServerProcessesTests {
  /// A household "Smith kitchen" with a token file per device, on a fresh database.
  static func household(_ directory: URL, devices: [String], cluster: TemporaryPostgres? = nil) throws -> String {
    let database = try (cluster ?? TemporaryPostgres.shared()).createDatabase("server_processes_\(UUID().uuidString.prefix(8))")
    try serverAdmin(database, ["setup-db"])
    try serverAdmin(database, ["add-household", "Smith kitchen"])
    for device in devices {
      let file = directory.appendingPathComponent("\(device).token").path
      try serverAdmin(database, ["issue-token", "--household", "Smith kitchen", "--device", device, "--output", file])
    }
    return database
  }

  /// Runs a batch script on a device's store; its output when it succeeds.
  static func batch(_ store: URL, _ script: String) throws -> ProcessResult {
    try runProcess("forager-batch", ["--store", store.path, "-"], input: script)
  }

  @Test func devicesThatAlternateBetweenTwoServersOnOneDatabaseConverge() throws {
    let directory = try TemporaryDirectory.make()
    let database = try Self.household(directory, devices: ["phone", "laptop"])
    let one = try ServerProcess(databaseURL: database, directory: directory, name: "one")
    let two = try ServerProcess(databaseURL: database, directory: directory, name: "two")
    defer {
      one.stop()
      two.stop()
    }
    let phone = directory.appendingPathComponent("phone.sqlite")
    let laptop = directory.appendingPathComponent("laptop.sqlite")
    func open(_ server: ServerProcess, _ device: String) -> String {
      "cloud open \(server.url) --token-file \(directory.appendingPathComponent("\(device).token").path) --household \"Smith kitchen\""
    }

    var run = try Self.batch(
      phone,
      """
      \(open(one, "phone"))
      category add Produce
      ingredient add basil --category produce
      sync
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    // The laptop reaches the household through the other server: it sees the phone's basil,
    // in the one Produce category, named as the laptop named it later.
    run = try Self.batch(
      laptop,
      """
      \(open(two, "laptop"))
      category add "  PRODUCE "
      recipe add "Tomato Pasta" --ingredient "400 g spaghetti"
      sync
      expect count category 1
      expect count ingredient 2
      expect field ingredient basil category PRODUCE
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    // Each goes back through the server the other used.
    run = try Self.batch(
      phone,
      """
      \(open(two, "phone"))
      sync
      expect count recipe 1
      expect count ingredient 2
      recipe add "Green Salad" --ingredient "1 head lettuce"
      sync
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    run = try Self.batch(
      laptop,
      """
      \(open(one, "laptop"))
      sync
      expect count recipe 2
      expect count ingredient 3
      sync status
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(run.stdout.contains("registered devices"), "\(run.stdout)")
    let registry = try serverAdmin(database, ["devices", "--household", "Smith kitchen"])
    #expect(registry.contains("phone") && registry.contains("laptop") && !registry.contains("last seen never"), "\(registry)")
  }

  @Test func aTokenRevokedFromTheShellIsRefusedAtOnceByRunningServers() throws {
    let directory = try TemporaryDirectory.make()
    let database = try Self.household(directory, devices: ["phone"])
    let one = try ServerProcess(databaseURL: database, directory: directory, name: "one")
    let two = try ServerProcess(databaseURL: database, directory: directory, name: "two")
    defer {
      one.stop()
      two.stop()
    }
    let phone = directory.appendingPathComponent("phone.sqlite")
    let token = directory.appendingPathComponent("phone.token").path
    // Both servers have answered the phone's token (and cached it).
    var run = try Self.batch(
      phone,
      """
      cloud open \(one.url) --token-file \(token)
      category add Produce
      sync
      cloud open \(two.url) --token-file \(token)
      sync
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    _ = try serverAdmin(database, ["revoke-token", "--household", "Smith kitchen", "--device", "phone"])
    // The next request to either server is refused, without waiting for any cache to age.
    for server in [one, two] {
      run = try Self.batch(
        phone,
        """
        cloud open \(server.url) --token-file \(token)
        category add Dairy
        sync
        """)
      #expect(run.status != 0, "\(run.stdout)")
      #expect(run.stderr.contains("revoked"), "\(run.stderr)")
    }
    // The watcher starts after the database client: no warning of a lease before it ran.
    for server in [one, two] {
      let log = try String(contentsOf: server.log, encoding: .utf8)
      #expect(!log.contains("warning"), "\(log)")
    }
  }

  @Test func aServerKilledDuringAPushLosesNothingAndStoresNothingTwice() throws {
    let directory = try TemporaryDirectory.make()
    let database = try Self.household(directory, devices: ["phone", "laptop"])
    var server = try ServerProcess(databaseURL: database, directory: directory, name: "first")
    defer { server.stop() }
    let phone = directory.appendingPathComponent("phone.sqlite")
    let laptop = directory.appendingPathComponent("laptop.sqlite")
    let count = 3_000
    let adds = (1...count).map { "category add \"Aisle \($0)\"" }.joined(separator: "\n")
    var run = try Self.batch(phone, adds + "\n")
    #expect(run.status == 0, "\(run.stderr)")

    // The phone pushes its 3,000 changes (several batches); the server dies meanwhile.
    let pushLog = directory.appendingPathComponent("push.log").path
    let script = directory.appendingPathComponent("push.forager")
    try "cloud open \(server.url) --token-file \(directory.appendingPathComponent("phone.token").path)\nsync\n".write(
      to: script, atomically: true, encoding: .utf8)
    let pusher = try Spawn.start(try Executables.url("forager-batch").path, ["--store", phone.path, script.path], output: pushLog)
    usleep(400_000)
    server.stop(SIGKILL)
    var status: Int32 = 0
    while waitpid(pusher, &status, 0) < 0 && errno == EINTR {}

    // A new server on the same database; the phone's next sync finishes the push.
    server = try ServerProcess(databaseURL: database, directory: directory, name: "second")
    run = try Self.batch(
      phone,
      """
      cloud open \(server.url) --token-file \(directory.appendingPathComponent("phone.token").path)
      sync
      sync status
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    run = try Self.batch(
      laptop,
      """
      cloud open \(server.url) --token-file \(directory.appendingPathComponent("laptop.token").path)
      sync
      expect count category \(count)
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    // Every batch id once in the log (the table's unique key would refuse a second copy; a
    // retried batch is answered from the first), and every change arrived exactly once.
    let rows = try psql(database, "SELECT count(*), count(DISTINCT batch_id) FROM batches")
    let numbers = rows.split(separator: "|").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(numbers.count == 2 && numbers[0] == numbers[1] && (numbers[0] ?? 0) >= 2, "\(rows)")
  }

  @Test func aDatabaseRestartedDuringASyncLosesNothing() throws {
    // A cluster of its own: restarting the shared one would cut other tests' connections.
    let cluster = try TemporaryPostgres.start()
    defer { cluster.stop() }
    let directory = try TemporaryDirectory.make()
    let database = try Self.household(directory, devices: ["phone", "laptop"], cluster: cluster)
    let server = try ServerProcess(databaseURL: database, directory: directory, name: "server")
    defer { server.stop() }
    let phone = directory.appendingPathComponent("phone.sqlite")
    let laptop = directory.appendingPathComponent("laptop.sqlite")
    let count = 3_000
    var run = try Self.batch(phone, (1...count).map { "category add \"Shelf \($0)\"" }.joined(separator: "\n") + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    let open = "cloud open \(server.url) --token-file \(directory.appendingPathComponent("phone.token").path)"
    let script = directory.appendingPathComponent("push.forager")
    try "\(open)\nsync\n".write(to: script, atomically: true, encoding: .utf8)
    let pusher = try Spawn.start(
      try Executables.url("forager-batch").path, ["--store", phone.path, script.path],
      output: directory.appendingPathComponent("push.log").path)
    usleep(300_000)
    try cluster.restart()
    var status: Int32 = 0
    while waitpid(pusher, &status, 0) < 0 && errno == EINTR {}

    // The same server, its database back: the next syncs finish the work.
    run = try Self.batch(phone, "\(open)\nsync\n")
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    run = try Self.batch(
      laptop,
      """
      cloud open \(server.url) --token-file \(directory.appendingPathComponent("laptop.token").path)
      sync
      expect count category \(count)
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
  }
}
