public import Foundation
import Synchronization

/// A clock whose readings strictly increase by at least a millisecond, even when the
/// system clock stands still or steps back.
///
/// Stores opened by one process share one, so that of two writes on different devices of
/// a session, the later one is always dated later: sync's "later write wins" then means
/// exactly that, even for writes within the same millisecond.
///
/// ```swift
/// let factory = StoreFactory(backends: [SQLiteBackend(), MemoryBackend()], clock: MonotonicClock().now)
/// ```
public final class MonotonicClock: Sendable {
  private let last = Mutex<Double>(0)

  /// A clock whose first reading is the system time.
  public init() {}

  /// The next reading: the system time, or one millisecond after the previous reading.
  public func now() -> Date {
    let milliseconds = last.withLock { last -> Double in
      let current = (Date().timeIntervalSince1970 * 1000).rounded(.down)
      last = max(current, last + 1)
      return last
    }
    return Date(timeIntervalSince1970: milliseconds / 1000)
  }
}
