import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

/// `forager-server` while its database is away: liveness still answers, readiness and
/// requests are refused within seconds with `Retry-After` (not after the database pool's
/// minute of connection attempts), and `serve` waits for a database it cannot reach for as
/// long as it is told, saying so, then gives up.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct ServerAvailabilityTests {
  /// An answer as curl read it, and how long it took.
  struct Answer {
    let status: Int
    let headers: String
    let body: String
    let seconds: Double

    func header(_ name: String) -> String? {
      headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }
  }

  /// A GET with curl; status 0 when no answer came within `maxTime` seconds.
  static func get(_ url: String, token: String? = nil, maxTime: Double = 90) throws -> Answer {
    let directory = try TemporaryDirectory.make()
    let headers = directory.appendingPathComponent("headers").path
    let body = directory.appendingPathComponent("body").path
    var arguments = ["-s", "-m", String(maxTime), "-o", body, "-D", headers, "-w", "%{http_code}"]
    if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
    let start = Date()
    // curl exits non-zero when it times out; its output is then "000".
    let status = (try? Spawn.run("/usr/bin/curl", arguments + [url])) ?? "000"
    return Answer(
      status: Int(status) ?? 0, headers: (try? String(contentsOfFile: headers, encoding: .utf8)) ?? "",
      body: (try? String(contentsOfFile: body, encoding: .utf8)) ?? "", seconds: Date().timeIntervalSince(start))
  }

  @Test func whileTheDatabaseIsAwayRequestsAreRefusedWithinSecondsAndServedOnceItIsBack() throws {
    // A cluster of its own: stopping the shared one would cut other tests' connections.
    let cluster = try TemporaryPostgres.start()
    defer { cluster.stop() }
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone"], cluster: cluster)
    let token = try String(contentsOf: directory.appendingPathComponent("phone.token"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let server = try ServerProcess(databaseURL: database, directory: directory, name: "server")
    defer { server.stop() }
    #expect(try Self.get(server.url + "/v1/ready").status == 200)
    #expect(try Self.get(server.url + "/v1/session", token: token).status == 200)

    try cluster.pause()
    let health = try Self.get(server.url + "/v1/health")
    #expect(health.status == 200 && health.seconds < 10, "\(health)")
    // Readiness answers from a check at most a second old: let the one before the pause age.
    Thread.sleep(forTimeInterval: 1.1)
    let ready = try Self.get(server.url + "/v1/ready")
    #expect(ready.status == 503 && ready.header("Retry-After") == "2", "\(ready)")
    #expect(ready.seconds < 30, "readiness took \(ready.seconds) s")
    for _ in 0..<3 {
      let session = try Self.get(server.url + "/v1/session", token: token)
      #expect(session.status == 503 && session.body.contains("storage-unavailable") && session.header("Retry-After") == "2", "\(session)")
      #expect(session.seconds < 30, "a request took \(session.seconds) s while the database was away")
    }

    try cluster.resume()
    let deadline = Date().addingTimeInterval(30)
    var back = try Self.get(server.url + "/v1/ready")
    while back.status != 200 && Date() < deadline {
      usleep(250_000)
      back = try Self.get(server.url + "/v1/ready")
    }
    #expect(back.status == 200, "\(back)")
    #expect(try Self.get(server.url + "/v1/session", token: token).status == 200)
  }

  @Test func serveWaitsForADatabaseItCannotReachAsLongAsToldThenGivesUpSayingWhy() throws {
    let port = try TemporaryPostgres.freePort()
    let start = Date()
    let run = try runProcess(
      "forager-server", ["serve", "--port", "0", "--wait-for-database", "4"],
      environment: ["DATABASE_URL": "postgres://forager@127.0.0.1:\(port)/forager"], timeout: 60)
    let seconds = Date().timeIntervalSince(start)
    #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
    #expect(run.stderr.contains("the database postgres://forager@127.0.0.1:\(port)/forager cannot be reached"), "\(run.stderr)")
    #expect(run.stderr.contains("trying again in 2 s (attempt 1)"), "\(run.stderr)")
    #expect(run.stderr.contains("could not be reached in") && run.stderr.contains("--wait-for-database"), "\(run.stderr)")
    #expect(seconds < 20, "serve gave up after \(seconds) s")
    #expect(!run.stdout.contains("listening"))
  }

  @Test func serveStartsOnceADatabaseThatWasAwayComesBack() throws {
    let cluster = try TemporaryPostgres.start()
    defer { cluster.stop() }
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [], cluster: cluster)
    try cluster.pause()
    let resumer = Thread {
      Thread.sleep(forTimeInterval: 3)
      try? cluster.resume()
    }
    resumer.start()
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server", arguments: ["--wait-for-database", "60"], within: 60)
    defer { server.stop() }
    let log = (try? String(contentsOf: server.log, encoding: .utf8)) ?? ""
    #expect(log.contains("cannot be reached") && log.contains("trying again"), "\(log)")
    #expect(try Self.get(server.url + "/v1/ready").status == 200)
  }
}
