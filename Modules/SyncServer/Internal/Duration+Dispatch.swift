import Dispatch

extension Duration {
  /// This duration as a dispatch interval, for a timer's deadline: negative durations are
  /// zero, and the seconds are clamped before multiplying, so a duration of centuries is a
  /// timer that never fires rather than an overflow.
  var dispatchInterval: DispatchTimeInterval {
    let parts = components
    let seconds = max(0, min(parts.seconds, Int64(Int.max) / 1_000_000_000 - 1))
    return .nanoseconds(Int(seconds * 1_000_000_000 + max(0, parts.attoseconds) / 1_000_000_000))
  }
}
