public import Foundation
import Synchronization

/// Counts what sync did and keeps the last events, for `sync status`.
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
    /// What happened, for the user.
    public let detail: String
  }

  /// Totals since the monitor was created, and the newest events (oldest first).
  public struct Status: Sendable, Hashable, Codable {
    /// Records imported.
    public var imports = 0
    /// Record changes exported.
    public var exports = 0
    /// Conflicts resolved.
    public var conflicts = 0
    /// Records merged.
    public var merges = 0
    /// Errors met.
    public var errors = 0
    /// Syncs run.
    public var syncs = 0
    /// When the last sync finished.
    public var lastSync: Date?
    /// The newest events, oldest first.
    public var events: [Event] = []

    /// Zero counts and no events.
    public init() {}
  }

  /// How many events are kept.
  public static let eventLimit = 100

  private let state = Mutex(Status())
  private let clock: @Sendable () -> Date

  /// A monitor that dates its events with `clock`.
  public init(clock: @escaping @Sendable () -> Date = { Date() }) {
    self.clock = clock
  }

  /// The counts and events so far.
  public var status: Status { state.withLock { $0 } }

  func record(_ kind: Event.Kind, _ detail: String, count: Int = 1) {
    let now = clock()
    state.withLock { status in
      switch kind {
      case .sync:
        status.syncs += 1
        status.lastSync = now
      case .import: status.imports += count
      case .export: status.exports += count
      case .conflict: status.conflicts += count
      case .merge: status.merges += count
      case .error: status.errors += count
      }
      status.events.append(Event(date: now, kind: kind, detail: detail))
      if status.events.count > Self.eventLimit { status.events.removeFirst(status.events.count - Self.eventLimit) }
    }
  }
}
