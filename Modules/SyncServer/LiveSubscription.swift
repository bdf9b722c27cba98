public import Foundation
import Synchronization

/// One subscriber's place: the newest end of the log it was offered and the last it was told.
///
/// ``next()`` waits for an end past the one told, a close, or a heartbeat made due by
/// ``heartbeatDue()``. It holds two numbers and at most one waiting reader, however many
/// announcements arrive while nobody reads, and no timer of its own: a wait costs a
/// continuation, so one push to a household with many subscribers wakes each once.
public final class LiveSubscription: Sendable {
  /// Why a subscription ended.
  public enum CloseReason: String, Sendable {
    /// The server is shutting down: subscribe again (to another instance) after a moment.
    case shutdown
    /// The subscriber did not take an event within the write timeout.
    case slowReader = "slow-reader"
    /// The subscriber's token was revoked.
    case tokenRevoked = "token-revoked"
    /// The subscriber's token expired.
    case tokenExpired = "token-expired"
    /// The subscriber's token is gone (its household or device was deleted).
    case tokenUnknown = "token-unknown"
  }

  /// What a subscription's credential is checked by while it is open
  /// (``LiveAnnouncer/credentialsChanged()``): the hash its token is looked up by, when the
  /// token expires, and how many credential changes the announcer had heard before the token
  /// was looked up (a change heard after it makes the token be looked up again).
  public struct Access: Sendable, Hashable {
    public let tokenHash: Data
    public let expiresAt: Date
    public let changesSeen: Int

    public init(tokenHash: Data, expiresAt: Date, changesSeen: Int) {
      self.tokenHash = tokenHash
      self.expiresAt = expiresAt
      self.changesSeen = changesSeen
    }
  }

  /// What a wait gave.
  public enum Next: Sendable, Equatable {
    /// The log now ends at this sequence, past what the subscriber was told.
    case announce(Int64)
    /// Nothing new within the timeout: the newest end known (no later than told).
    case heartbeat(Int64)
    case closed(CloseReason)
  }

  let id: Int
  let household: Int64
  let token: String
  /// The credential it is checked by; nil for a subscription opened without one (tests).
  let access: Access?
  private weak let announcer: LiveAnnouncer?

  private struct State {
    var offered: Int64
    var told: Int64
    var closed: CloseReason?
    var waiter: CheckedContinuation<Void, Never>?
    var ended = false
    var heartbeatDue = false

    /// The newest end offered, now told, when it is past the one told; a heartbeat due is
    /// no longer due once it is sent.
    mutating func announcement() -> Int64? {
      guard offered > told else { return nil }
      told = offered
      heartbeatDue = false
      return offered
    }
  }

  private let state: Mutex<State>

  init(id: Int, household: Int64, token: String, access: Access?, told: Int64, announcer: LiveAnnouncer) {
    self.id = id
    self.household = household
    self.token = token
    self.access = access
    self.announcer = announcer
    state = Mutex(State(offered: told, told: told))
  }

  /// The newest end of the log this subscriber was told.
  public var told: Int64 { state.withLock { $0.told } }

  func offer(_ sequence: Int64) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard sequence > state.offered else { return nil }
      state.offered = sequence
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Ends the subscription: a waiting ``next()`` returns ``Next/closed(_:)``.
  public func close(_ reason: CloseReason) {
    wake { state in if state.closed == nil { state.closed = reason } }
  }

  /// Leaves the hub (the stream ended): frees its place under the limits. Idempotent.
  public func end() {
    let first = state.withLock { state in
      defer { state.ended = true }
      return !state.ended
    }
    if first { announcer?.remove(self) }
    close(.shutdown)
  }

  /// Nothing was written for a heartbeat's time: a waiting ``next()`` returns
  /// ``Next/heartbeat(_:)`` unless an announcement is ready.
  public func heartbeatDue() {
    wake { $0.heartbeatDue = true }
  }

  /// Waits for an announcement past the last told, a close, or ``heartbeatDue()``. A
  /// cancelled wait returns ``Next/closed(_:)`` with ``CloseReason/shutdown``.
  public func next() async -> Next {
    if let ready = take() { return ready }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          if state.closed != nil || state.offered > state.told || state.heartbeatDue || state.waiter != nil { return true }
          state.waiter = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      wake()
    }
    if let ready = take() { return ready }
    if Task.isCancelled { return .closed(.shutdown) }
    return .heartbeat(state.withLock { $0.told })
  }

  /// ``next()`` with its own timer: a heartbeat after `timeout` without an announcement.
  /// For a caller without a pacer of its own; the live route paces every stream with one
  /// watchdog instead of a timer per wait.
  public func next(timeout: Duration) async -> Next {
    if let ready = take() { return ready }
    let timer = Task { [weak self] in
      await CancellableSleep.sleep(for: timeout)
      guard !Task.isCancelled else { return }
      self?.heartbeatDue()
    }
    defer { timer.cancel() }
    return await next()
  }

  /// The newest end offered, now told, when it is past the one told: what a stream that
  /// waited out its gap between announcements sends instead of the one it woke for.
  func takeNewer() -> Int64? {
    state.withLock { $0.announcement() }
  }

  private func take() -> Next? {
    state.withLock { state in
      if let reason = state.closed { return .closed(reason) }
      if let sequence = state.announcement() { return .announce(sequence) }
      guard state.heartbeatDue else { return nil }
      state.heartbeatDue = false
      return .heartbeat(state.told)
    }
  }

  /// Applies `change` and resumes the waiting reader, if any, in one step.
  private func wake(_ change: (inout State) -> Void = { _ in }) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      change(&state)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
