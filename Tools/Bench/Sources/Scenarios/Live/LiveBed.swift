import AsyncHTTPClient
import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import SpawnSupport
import SyncPostgres
import SyncServer

/// The live scenario's test bed: a throwaway PostgreSQL cluster and two server processes
/// on one database (this executable in serve mode, as the `server` scenario starts its
/// one), households and their tokens. Built and torn down from the scenario's own thread.
final class LiveBed: @unchecked Sendable {
  /// One server process: its pid and its address.
  struct Server {
    let pid: Int32
    let base: String
    var port: Int { Int(base.split(separator: ":").last ?? "") ?? 0 }
  }

  let cluster: TemporaryPostgres
  let client: PostgresClient
  let storage: PostgresHouseholdStorage
  let servers: [Server]
  let households: Int
  /// An HTTP client for the bench's own subscribers and load devices, with a connection
  /// per request under way (the default 8 per host would queue them behind 8 sockets).
  let http: HTTPClient
  private let clientTask: Task<Void, Never>

  /// Starts the cluster, the schema, `serverCount` servers and `households` households.
  init(_ context: Context, serverCount: Int, households: Int, connections: Int) throws {
    cluster = try context.startPostgres()
    var started: [Server] = []
    do {
      let url = try cluster.createDatabase("live")
      let location = try PostgresLocation(url: url)
      let client = PostgresClient(configuration: location.configuration)
      self.client = client
      clientTask = Task { await client.run() }
      let logger = Logger(label: "bench")
      storage = try ServerLoadScenario.blocking {
        try await PostgresSchema.setUp(client, database: location.description, logger: logger)
        let storage = try await PostgresHouseholdStorage.open(client, database: location.description, logger: logger)
        let admin = Administration(storage: storage)
        for household in 0..<households { _ = try await admin.addHousehold("household \(household)") }
        return storage
      }
      self.households = households
      for index in 0..<serverCount {
        let log = context.path("server-\(index).log")
        let pid = try Spawn.start(
          URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, ["--serve-load", url, "--serve-live"], output: log)
        started.append(Server(pid: pid, base: ""))
        started[index] = Server(pid: pid, base: try ServerLoadScenario.waitForPort(log))
      }
    } catch {
      Self.stop(started)
      cluster.stop()
      throw error
    }
    servers = started
    var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5)))
    configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
    http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  /// A token for each device, device `index` in household `households[index]`.
  func tokens(households: [Int], prefix: String) throws -> [String] {
    try ServerLoadScenario.blocking { [storage] in
      let admin = Administration(storage: storage)
      var secrets: [String] = []
      for (index, household) in households.enumerated() {
        secrets.append(try await admin.issueToken(household: "household \(household)", device: "\(prefix) \(index)").token.secret)
      }
      return secrets
    }
  }

  /// Stops the servers, the client and the cluster.
  func stop() {
    try? ServerLoadScenario.blocking { [http] in try await http.shutdown() }
    Self.stop(servers)
    clientTask.cancel()
    cluster.stop()
  }

  private static func stop(_ servers: [Server]) {
    for server in servers {
      kill(server.pid, SIGTERM)
      _ = try? Spawn.wait(server.pid, program: "forager-bench --serve-load", timeout: 10)
    }
  }

  /// A server process's resident set now (VmRSS), in MiB.
  static func residentMiB(of pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return .nan }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      if let kib = line.split(separator: " ").compactMap({ Double($0) }).first { return kib / 1024 }
    }
    return .nan
  }
}
