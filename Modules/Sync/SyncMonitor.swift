public import Foundation
import Synchronization

/// Counts what sync did and keeps the last events, for `sync status`.
public final class SyncMonitor: Sendable {
  /// One thing that happened during sync.
  public struct Event: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable { case sync, `import`, export, conflict, merge, error }
    public let date: Date
    public let kind: Kind
    public let detail: String
  }

  /// Totals since the monitor was created, and the newest events (oldest first).
  public struct Status: Sendable, Hashable, Codable {
    public var imports = 0
    public var exports = 0
    public var conflicts = 0
    public var merges = 0
    public var errors = 0
    public var syncs = 0
    public var lastSync: Date?
    public var events: [Event] = []

    public init() {}
  }

  /// How many events are kept.
  public static let eventLimit = 100

  private let state = Mutex(Status())
  private let clock: @Sendable () -> Date

  public init(clock: @escaping @Sendable () -> Date = { Date() }) {
    self.clock = clock
  }

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
