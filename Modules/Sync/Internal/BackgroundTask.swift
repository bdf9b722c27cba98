import Dispatch
import Foundation
import Synchronization

/// Work done on another thread while this one goes on: the next page of the cloud's log
/// fetched while this one is joined (``PageFetch``), a batch pushed while the next one is
/// read from the store. Whoever starts one waits for it (``value()`` or ``wait()``) before
/// returning, so no task outlives the sync that began it.
final class BackgroundTask<Value: Sendable>: Sendable {
  private let outcome = Mutex<Result<Value, any Error>?>(nil)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts `work` on a thread of its own. Not on Dispatch's global queue: on Linux that
  /// queue's threads also run Swift concurrency's tasks, and a blocking cloud call there
  /// (the HTTP cloud waits for its answer) can take the thread the answer needs, as a
  /// server running in the same process showed.
  init(_ work: @escaping @Sendable () throws -> Value) {
    let thread = Thread { [self] in
      let result = Result { try work() }
      outcome.withLock { $0 = result }
      finished.signal()
    }
    thread.start()
  }

  /// Waits for the work to end; returns what it returned or throws what it threw. Once.
  func value() throws -> Value {
    finished.wait()
    return try outcome.withLock { outcome in
      defer { outcome = nil }
      guard let result = outcome else { preconditionFailure("a background task's value is taken once") }
      return result
    }.get()
  }

  /// Waits for the work to end and drops its outcome.
  func wait() {
    finished.wait()
  }
}
