public import ServiceLifecycle

/// Runs ``PostgresHouseholdStorage/watchCredentialChanges(retryAfter:)`` as a service of a
/// server's service group, so that token lookups are cached while credential changes are
/// heard (Docs/SERVER.md).
///
/// List it after the database client (`app.addServices(client, watcher)`): a service group
/// stops its services in reverse order, so a graceful shutdown stops the watcher first,
/// while the client still answers. A lease the watcher waits for is then cancelled by a
/// running pool, instead of waiting on a client that has already shut down.
///
/// ```swift
/// let watcher = CredentialWatcher(storage: storage)
/// app.addServices(client, watcher)
/// app.beforeServerStarts { watcher.clientRuns() }
/// ```
public struct CredentialWatcher: Service {
  private let storage: PostgresHouseholdStorage
  private let started: AsyncStream<Void>
  private let start: AsyncStream<Void>.Continuation

  public init(storage: PostgresHouseholdStorage) {
    self.storage = storage
    (started, start) = AsyncStream<Void>.makeStream()
  }

  /// Starts watching. Call it once the database client runs (from the server's
  /// `beforeServerStarts`, after the client service started): a lease taken before the
  /// client runs works, but postgres-nio logs a warning for it.
  public func clientRuns() {
    start.yield()
    start.finish()
  }

  /// Watches from ``clientRuns()`` until the group shuts down or the task is cancelled.
  public func run() async {
    let (storage, started) = (storage, started)
    await cancelWhenGracefulShutdown {
      for await _ in started {
        await storage.watchCredentialChanges()
        return
      }
    }
  }
}
