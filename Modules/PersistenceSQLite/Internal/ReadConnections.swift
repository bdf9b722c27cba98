import GRDB
import Synchronization

/// The read connections of one ``SQLiteStore``: read-only connections to its file, handed
/// out from a stack of idle ones under a lock.
///
/// `DatabasePool` has read connections of its own, but reaching one costs more than the
/// indexed lookup a read usually is: a barrier block on a concurrent dispatch queue, a
/// semaphore, a dispatch group and two locks to check a reader out and back in, a scan of
/// every reader to refuse reentrant use, and a `PRAGMA schema_version` query to refresh a
/// schema cache the store never consults (its statements name their columns). Here
/// checking out is one uncontended lock, and a connection is used through its own serial
/// queue as GRDB requires. Like the pool, connections are made on demand, so concurrent
/// reads each get their own; a few stay open for the next reads.
final class ReadConnections: Sendable {
  private let path: String
  private let configuration: Configuration
  /// Idle connections, each with the statements it keeps at hand (``StatementSlots``).
  private let idle = Mutex<[(connection: DatabaseQueue, statements: StatementSlots)]>([])

  /// Connections kept open while idle; more are made when reads overlap.
  private static let maximumIdle = 4

  init(path: String, configuration: Configuration) {
    var configuration = configuration
    // What `DatabasePool` gives its readers: read-only, no transaction left open; the
    // store's busy timeout covers the rare SQLITE_BUSY of WAL readers (recovery, the
    // last connection closing).
    configuration.readonly = true
    configuration.allowsUnsafeTransactions = false
    self.path = path
    self.configuration = configuration
  }

  /// Runs `body` on an idle read connection (opened when none is idle), with that
  /// connection's statement slots.
  func read<T>(_ body: (Database, StatementSlots) throws -> T) throws -> T {
    let entry =
      try idle.withLock { $0.popLast() } ?? (
        connection: DatabaseQueue(path: path, configuration: configuration), statements: StatementSlots()
      )
    defer {
      idle.withLock { connections in
        if connections.count < Self.maximumIdle { connections.append(entry) }
      }
    }
    return try entry.connection.unsafeRead { try body($0, entry.statements) }
  }
}
