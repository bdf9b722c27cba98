import Metrics
import PostgresNIO

/// The storage's way into postgres-nio's connection pool, measured (postgres-nio reports no
/// pool metrics of its own): every call of a request leases its connection here.
///
/// | Metric | Kind | What |
/// |---|---|---|
/// | `forager_database_wait_seconds` | histogram (timer) | from asking the pool for a connection until one is leased |
/// | `forager_database_waiting` | gauge | calls waiting for a connection now |
/// | `forager_database_leased` | gauge | connections held by calls now, of the pool's 20 |
///
/// Waits that grow while `forager_database_leased` stays at the pool's size mean requests
/// queue for connections (long pushes, a slow database); the listeners' two connections
/// (credentials and appended batches) are held for good and not counted.
struct MeteredPool: Sendable {
  let client: PostgresClient
  private let wait: Metrics.Timer
  private let waiting: Meter
  private let leased: Meter

  init(client: PostgresClient, factory: any MetricsFactory = MetricsSystem.factory) {
    self.client = client
    wait = Metrics.Timer(label: "forager_database_wait_seconds", factory: factory)
    waiting = Meter(label: "forager_database_waiting", factory: factory)
    leased = Meter(label: "forager_database_leased", factory: factory)
  }

  /// Runs `body` with a connection leased from the pool, recording how long the lease took.
  func withConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
    let asked = ContinuousClock.now
    waiting.increment()
    var waited = true
    defer { if waited { waiting.decrement() } }
    return try await client.withConnection { connection in
      waited = false
      waiting.decrement()
      let elapsed = (ContinuousClock.now - asked).components
      wait.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
      leased.increment()
      defer { leased.decrement() }
      return try await body(connection)
    }
  }
}
