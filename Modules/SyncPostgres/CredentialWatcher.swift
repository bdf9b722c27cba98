public import ServiceLifecycle
public import SyncServer

/// Runs ``PostgresHouseholdStorage/watchCredentialChanges(retryAfter:)`` as a service of a
/// server's service group, so that token lookups are cached while credential changes are
/// heard (Docs/SERVER.md), and, given the server's ``LiveAnnouncer``,
/// ``PostgresHouseholdStorage/watchLogChanges(into:retryAfter:)`` beside it, so live
/// subscribers hear every server's pushes, and tells the announcer of each credential change,
/// so a live stream ends soon after its token is revoked or its household deleted on any
/// server or by any tool.
///
/// List it after the database client (`app.addServices(client, watcher)`): a service group
/// stops its services in reverse order, so a graceful shutdown stops the watcher first,
/// while the client still answers. A lease the watcher waits for is then cancelled by a
/// running pool, instead of waiting on a client that has already shut down.
///
/// ```swift
/// let watcher = CredentialWatcher(storage: storage, announcer: service.announcer)
/// app.addServices(client, watcher)
/// app.beforeServerStarts { watcher.clientRuns() }
/// ```
public struct CredentialWatcher: Service {
  private let storage: PostgresHouseholdStorage
  private let announcer: LiveAnnouncer?
  private let started: AsyncStream<Void>
  private let start: AsyncStream<Void>.Continuation

  public init(storage: PostgresHouseholdStorage, announcer: LiveAnnouncer? = nil) {
    self.storage = storage
    self.announcer = announcer
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
    let (storage, started, announcer) = (storage, started, announcer)
    await cancelWhenGracefulShutdown {
      for await _ in started {
        await withDiscardingTaskGroup { group in
          group.addTask { await storage.watchCredentialChanges(onChange: { announcer?.credentialsChanged() }) }
          if let announcer { group.addTask { await storage.watchLogChanges(into: announcer) } }
        }
        return
      }
    }
  }
}
