import Foundation
import Persistence
import Synchronization

/// Notices commits made to the file by other connections (another process syncing into
/// it, a migration's writer) while someone observes the store.
///
/// Commits through the store's own writer notify their subscribers themselves, with the
/// kinds they wrote. Commits through any other connection are invisible to them (and to
/// GRDB's observation, which sees only its own connection's statements). SQLite's
/// `PRAGMA data_version`, read on the store's writer connection, changes exactly when
/// another connection has committed since the last reading, and never for the writer's
/// own commits: so reading it every ``interval`` on the writer (a few microseconds each,
/// between the writer's transactions) finds the other commits without waking anyone for
/// the store's own. What such a commit touched is unknown, so every subscriber is called.
/// The poller runs only while the store has subscribers.
final class ForeignCommitPoller: Sendable {
  /// How long the poller sleeps between two readings.
  let interval: TimeInterval
  /// Reads `PRAGMA data_version` on the writer; nil when it cannot.
  private let readVersion: @Sendable () -> Int64?
  /// Called when another connection committed.
  private let onForeignCommit: @Sendable () -> Void

  private struct State {
    var wanted = false
    var running = false
    var closed = false
  }

  private let state = Mutex(State())

  init(interval: TimeInterval, readVersion: @escaping @Sendable () -> Int64?, onForeignCommit: @escaping @Sendable () -> Void) {
    self.interval = interval
    self.readVersion = readVersion
    self.onForeignCommit = onForeignCommit
  }

  /// Starts polling when `wanted` and no poll runs (reading the first version before it
  /// returns, so a commit after a subscription is never missed); stops after the current
  /// sleep when not.
  func setWanted(_ wanted: Bool) {
    let start = state.withLock { state -> Bool in
      state.wanted = wanted
      guard wanted, !state.running, !state.closed else { return false }
      state.running = true
      return true
    }
    guard start else { return }
    let baseline = readVersion()
    let thread = Thread { [self] in run(from: baseline) }
    thread.name = "forager.commit-poller"
    thread.start()
  }

  /// Stops polling for good (the store is closing).
  func close() {
    state.withLock { $0.closed = true }
  }

  private func run(from baseline: Int64?) {
    var last = baseline
    while true {
      Thread.sleep(forTimeInterval: interval)
      let goOn = state.withLock { state -> Bool in
        guard state.wanted, !state.closed else {
          state.running = false
          return false
        }
        return true
      }
      guard goOn else { return }
      guard let version = readVersion() else { continue }
      if let previous = last, previous != version { onForeignCommit() }
      last = version
    }
  }
}

extension CommitBroadcaster {
  /// A broadcaster whose subscribers are also called for other connections' commits,
  /// with the poller that notices them (running while there are subscribers).
  static func withPoller(
    interval: TimeInterval, readVersion: @escaping @Sendable () -> Int64?
  ) -> (broadcaster: CommitBroadcaster, poller: ForeignCommitPoller) {
    let box = Mutex<CommitBroadcaster?>(nil)
    let poller = ForeignCommitPoller(interval: interval, readVersion: readVersion) {
      box.withLock { $0 }?.notify(.everything)
    }
    let broadcaster = CommitBroadcaster { count in poller.setWanted(count > 0) }
    box.withLock { $0 = broadcaster }
    return (broadcaster, poller)
  }
}
