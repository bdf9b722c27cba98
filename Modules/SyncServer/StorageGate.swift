import Foundation
import Synchronization

/// Keeps requests from waiting on a database that is away.
///
/// Every storage call of a request runs under a deadline (``ServerConfiguration/storageTimeout``):
/// one that has not answered by then is `503 storage-unavailable` with `Retry-After`, and
/// the gate marks the storage down. While it is down, a request first checks the storage
/// (`HouseholdLog.checkReachable()`, within ``ServerConfiguration/readinessTimeout``)
/// and is refused at once when another request is checking it already: no request waits
/// for the database pool's own connection attempts (about a minute with postgres-nio)
/// while it is away. The first check that succeeds opens the gate again.
final class StorageGate: Sendable {
  private struct State {
    var down = false
    var checking = false
  }

  private let state = Mutex(State())

  var isDown: Bool { state.withLock { $0.down } }

  /// Lets a request through, or refuses it while the storage is down: the one request that
  /// runs `check` goes on when it succeeds; the others are refused at once meanwhile.
  func admit(retryAfter: Int, check: @Sendable () async -> Bool) async throws(ServerError) {
    let mustCheck = try state.withLock { state throws(ServerError) -> Bool in
      guard state.down else { return false }
      guard !state.checking else { throw .storageUnavailable(retryAfter: retryAfter) }
      state.checking = true
      return true
    }
    guard mustCheck else { return }
    let reachable = await check()
    state.withLock {
      $0.checking = false
      if reachable { $0.down = false }
    }
    if !reachable { throw .storageUnavailable(retryAfter: retryAfter) }
  }

  /// Records the outcome of a storage call or a check.
  func record(reachable: Bool) {
    state.withLock { $0.down = !reachable }
  }
}

/// Runs `work`, or gives up on it after `limit`: nil then (the work is cancelled, and
/// waiting for a database connection ends when it is).
package func withDeadline<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await work() }
    group.addTask {
      await CancellableSleep.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { return nil }
    return first
  }
}
