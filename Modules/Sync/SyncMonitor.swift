public import Foundation
import Synchronization

/// What sync is doing and did, for `sync status` and for an app's settings screen: the
/// device's state, the last success and error, the changes waiting, the totals, and the
/// last 100 events, read once (``status``) or observed (``updates()``).
///
/// ```swift
/// for await status in engine.monitor.updates() {
///   print(status.state, status.pendingChanges, status.lastError ?? "")
/// }
/// ```
public final class SyncMonitor: Sendable {
  /// One thing that happened during sync.
  public struct Event: Sendable, Hashable, Codable {
    /// What kind of thing happened.
    public enum Kind: String, Sendable, Codable {
      /// A sync finished, an import of pulled changes, an export of this device's, a
      /// conflict resolved, a merge learned, or an error.
      case sync, `import`, export, conflict, merge, error
    }
    /// When it happened.
    public let date: Date
    /// What kind of thing it was.
    public let kind: Kind
    /// The event told for a person.
    public let detail: String
  }

  /// What the device's sync is doing.
  public enum State: String, Sendable, Hashable, Codable {
    /// Nothing under way; the last sync (if any) succeeded.
    case idle
    /// A sync is under way.
    case syncing
    /// Live sync is on and its channel is heard.
    case live
    /// The device is set offline, or its last sync could not reach the cloud.
    case offline
    /// The cloud was reached and the last sync failed there (refused, damaged, or a
    /// change this device cannot apply).
    case refused
  }

  /// Totals since the monitor was created, the state, and the newest events (oldest first).
  public struct Status: Sendable, Hashable, Codable {
    /// Record changes pulled and applied.
    public var imports = 0
    /// Record changes pushed.
    public var exports = 0
    /// Conflicts resolved by the merge rule.
    public var conflicts = 0
    /// Duplicates merged.
    public var merges = 0
    /// Errors.
    public var errors = 0
    /// Syncs that completed.
    public var syncs = 0
    /// When the last sync completed.
    public var lastSync: Date?
    /// The newest events, oldest first (at most ``SyncMonitor/eventLimit``).
    public var events: [Event] = []
    /// What sync is doing now.
    public var state = State.idle
    /// When a sync last succeeded.
    public var lastSuccess: Date?
    /// Why the last sync failed; nil once one succeeds.
    public var lastError: String?
    /// This device's changes waiting to be pushed, as of the end of the last sync.
    public var pendingChanges = 0
    /// Changes from other devices set aside because they break the sync rules, as of the
    /// end of the last sync.
    public var setAsideChanges = 0

    /// A status with nothing recorded.
    public init() {}
  }

  /// How many events are kept.
  public static let eventLimit = 100

  private struct Inner {
    var status = Status()
    var live = false
    var offline = false
    var syncing = false
    /// The last sync failed: unreachable (offline) or at the cloud (refused).
    var failure: State?
    var watchers: [Int: AsyncStream<Status>.Continuation] = [:]
    var nextWatcher = 0

    /// Sets the state from its parts and tells the watchers.
    mutating func changed() {
      status.state =
        syncing ? .syncing : offline ? .offline : failure ?? (live ? .live : .idle)
      for watcher in watchers.values { watcher.yield(status) }
    }
  }

  private let state = Mutex(Inner())
  private let clock: @Sendable () -> Date

  /// A monitor whose events are dated by `clock`.
  public init(clock: @escaping @Sendable () -> Date = { Date() }) {
    self.clock = clock
  }

  /// The status now.
  public var status: Status { state.withLock { $0.status } }

  /// The status now, then again after every change, as an async sequence: coalesced (a
  /// consumer that is busy gets the newest status, one is buffered at most), ending when
  /// the consuming task is cancelled.
  public func updates() -> AsyncStream<Status> {
    let (stream, continuation) = AsyncStream.makeStream(of: Status.self, bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { inner -> Int in
      let id = inner.nextWatcher
      inner.nextWatcher += 1
      inner.watchers[id] = continuation
      continuation.yield(inner.status)
      return id
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Marks live sync on (its channel heard) or off.
  public func setLive(_ live: Bool) {
    state.withLock { inner in
      guard inner.live != live else { return }
      inner.live = live
      inner.changed()
    }
  }

  /// Marks the device offline (`device offline`) or back online.
  public func setOffline(_ offline: Bool) {
    state.withLock { inner in
      guard inner.offline != offline else { return }
      inner.offline = offline
      inner.changed()
    }
  }

  func syncStarted() {
    state.withLock { inner in
      inner.syncing = true
      inner.changed()
    }
  }

  /// A sync ended: `error` nil when it succeeded; the backlog as it then stands.
  func syncEnded(error: (any Error)?, pending: Int?, setAside: Int?) {
    let now = clock()
    state.withLock { inner in
      inner.syncing = false
      if let error {
        inner.failure = (error as? CloudError).map { if case .unavailable = $0 { .offline } else { .refused } } ?? .refused
        inner.status.lastError = "\(error)"
      } else {
        inner.failure = nil
        inner.status.lastError = nil
        inner.status.lastSuccess = now
      }
      if let pending { inner.status.pendingChanges = pending }
      if let setAside { inner.status.setAsideChanges = setAside }
      inner.changed()
    }
  }

  func record(_ kind: Event.Kind, _ detail: String, count: Int = 1) {
    let now = clock()
    state.withLock { inner in
      switch kind {
      case .sync:
        inner.status.syncs += 1
        inner.status.lastSync = now
      case .import: inner.status.imports += count
      case .export: inner.status.exports += count
      case .conflict: inner.status.conflicts += count
      case .merge: inner.status.merges += count
      case .error: inner.status.errors += count
      }
      inner.status.events.append(Event(date: now, kind: kind, detail: detail))
      if inner.status.events.count > Self.eventLimit {
        inner.status.events.removeFirst(inner.status.events.count - Self.eventLimit)
      }
      inner.changed()
    }
  }
}
