import Logging
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer

/// What the server scenarios start from: a throwaway PostgreSQL cluster (durable unless
/// `--fast-postgres`), one database with the server's schema, a running client, and the
/// server's storage and administration on it.
struct BenchDatabase {
  let cluster: TemporaryPostgres
  /// The database's URL, for a server process.
  let url: String
  let client: PostgresClient
  let storage: PostgresHouseholdStorage
  let admin: Administration
  private let clientTask: Task<Void, Never>

  /// Starts the cluster and sets up the database `name`; stops what it started when a step fails.
  static func start(_ context: Context, name: String) async throws -> BenchDatabase {
    let cluster = try context.startPostgres()
    do {
      let url = try cluster.createDatabase(name)
      let location = try PostgresLocation(url: url)
      let client = PostgresClient(configuration: location.configuration)
      let clientTask = Task { await client.run() }
      do {
        let logger = Logger(label: "bench")
        try await PostgresSchema.setUp(client, database: location.description, logger: logger)
        let storage = try await PostgresHouseholdStorage.open(client, database: location.description, logger: logger)
        return BenchDatabase(
          cluster: cluster, url: url, client: client, storage: storage, admin: Administration(storage: storage), clientTask: clientTask)
      } catch {
        clientTask.cancel()
        throw error
      }
    } catch {
      cluster.stop()
      throw error
    }
  }

  /// Stops the client, then the cluster.
  func stop() {
    clientTask.cancel()
    cluster.stop()
  }
}
