import Dispatch
import Synchronization

/// A sleep whose timer is gone the moment it is cancelled.
///
/// `Task.sleep` on Linux arms a dispatch timer that stays armed after the task is
/// cancelled: it fires at its deadline and finds nobody waiting. Every request's deadline
/// (``withDeadline(_:_:)``) is such a sleep, cancelled as soon as the request's work ends,
/// so under load the timer heap held one dead timer per request for a whole timeout (a
/// minute for a body) and the server spent several percent of a core firing them after
/// the load had stopped (Docs/PERFORMANCE.md, "Live subscribers and pushes"). This sleep
/// cancels its dispatch source when its task is cancelled.
enum CancellableSleep {
  /// Returns after `duration`, or as soon as the calling task is cancelled.
  static func sleep(for duration: Duration) async {
    let waiter = Waiter()
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + duration.dispatchInterval)
        timer.setEventHandler { waiter.finish() }
        // A source is released only once resumed (dispatch traps on a suspended one).
        timer.resume()
        guard waiter.begin(continuation, timer) else {
          timer.cancel()
          continuation.resume()
          return
        }
      }
    } onCancel: {
      waiter.finish()
    }
  }

  /// A dispatch source crosses threads only to be cancelled, which dispatch makes safe
  /// from any thread.
  private struct TimerHandle: @unchecked Sendable {
    let source: any DispatchSourceTimer
  }

  /// The one continuation and timer of a sleep; whichever of the timer and the
  /// cancellation comes first resumes it and cancels the timer.
  private final class Waiter: Sendable {
    private struct State {
      var continuation: CheckedContinuation<Void, Never>?
      var timer: TimerHandle?
      var finished = false
    }

    private let state = Mutex(State())

    /// Records the sleep; false when it was cancelled before it began.
    func begin(_ continuation: CheckedContinuation<Void, Never>, _ timer: any DispatchSourceTimer) -> Bool {
      state.withLock { state in
        guard !state.finished else { return false }
        state.continuation = continuation
        state.timer = TimerHandle(source: timer)
        return true
      }
    }

    func finish() {
      let (continuation, timer) = state.withLock { state in
        state.finished = true
        defer { (state.continuation, state.timer) = (nil, nil) }
        return (state.continuation, state.timer)
      }
      timer?.source.cancel()
      continuation?.resume()
    }
  }
}
