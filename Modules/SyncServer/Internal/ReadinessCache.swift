import Foundation
import Synchronization

/// `/v1/ready`'s answers in one process: the storage is checked at most once per
/// ``interval`` (on the server's clock), and requests that arrive while a check is under way
/// wait for that check instead of starting their own. However often a load balancer, or
/// anyone else, asks, readiness costs the database at most one round trip a second per
/// server process.
final class ReadinessCache: Sendable {
  /// How long a check's outcome answers readiness requests.
  let interval: TimeInterval

  private struct State {
    var outcome: (at: Date, reachable: Bool)?
    var running: (id: Int, task: Task<Bool, Never>)?
    var checks = 0
  }

  private let state = Mutex(State())

  init(interval: TimeInterval = 1) { self.interval = interval }

  /// Whether the storage is reachable: the last check's outcome while it is younger than
  /// ``interval`` at `now`, else the outcome of the check under way, or of one `check` starts.
  func reachable(now: Date, check: @escaping @Sendable () async -> Bool) async -> Bool {
    enum Source {
      case known(Bool)
      case check(Int, Task<Bool, Never>)
    }
    let source = state.withLock { state -> Source in
      if let outcome = state.outcome, now >= outcome.at, now.timeIntervalSince(outcome.at) < interval { return .known(outcome.reachable) }
      if let running = state.running { return .check(running.id, running.task) }
      state.checks += 1
      let task = Task { await check() }
      state.running = (state.checks, task)
      return .check(state.checks, task)
    }
    switch source {
    case .known(let reachable): return reachable
    case .check(let id, let task):
      // A request that stops waiting leaves the check running for the others.
      let reachable = await task.value
      state.withLock { state in
        guard state.running?.id == id else { return }
        state.running = nil
        state.outcome = (now, reachable)
      }
      return reachable
    }
  }
}
