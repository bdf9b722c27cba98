/// A cloud that can tell a device when its log grows: the live channel (Docs/SYNC.md, "Live").
///
/// A channel only says where the log ends; the device still pulls from its own cursor, so
/// an announcement that is lost, late, repeated or wrong changes nothing but when the
/// device syncs. Backends: `InMemoryCloud` (module `SyncMemory`; announces each push in the process),
/// `SQLiteCloud` (watches its file), `HTTPCloud` (the server's `GET /v1/live` stream).
///
/// ```swift
/// let channel = cloud.openLiveChannel { signal in print(signal) }
/// channel.close()
/// ```
public protocol LiveCloud: CloudStore {
  /// Opens a channel. `handler` is called from any thread, one signal at a time, until the
  /// channel ends: its last signal is ``LiveSignal/ended(_:)`` (also after ``LiveChannel/close()``)
  /// or ``LiveSignal/refused(_:retryAfter:)``.
  func openLiveChannel(_ handler: @escaping @Sendable (LiveSignal) -> Void) -> any LiveChannel
}

/// What a live channel says.
public enum LiveSignal: Sendable, Hashable {
  /// The channel is open; the log ended here when it opened. `heartbeat` is how often a
  /// quiet channel says so (nil: it never goes quiet unnoticed, as in memory).
  case opened(latestSequence: Int64, heartbeat: Duration?)
  /// The log now ends at this sequence.
  case announced(Int64)
  /// Nothing new; the channel is alive.
  case heartbeat(latestSequence: Int64)
  /// The channel ended (a reason for `sync status`); the device polls and opens another.
  case ended(String)
  /// The cloud refused the channel and said when to ask again (a server's `Retry-After`,
  /// as for too many subscriptions of one token): the channel ended, the device polls, and
  /// opens another no sooner than `retryAfter`. Like ``ended(_:)``, a channel's last signal.
  case refused(String, retryAfter: Duration)
}

/// An open live channel.
public protocol LiveChannel: AnyObject, Sendable {
  /// Ends the channel; its handler then hears ``LiveSignal/ended(_:)`` once, if it has not yet.
  func close()
}
