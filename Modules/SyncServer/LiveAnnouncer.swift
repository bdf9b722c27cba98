import Synchronization

/// The live channel's hub in one server process: who is subscribed to which household, and
/// the newest sequence each household's log is known to end at (Docs/SERVER.md, "Live").
///
/// An announcement says only "the log now ends at N": the hub keeps one number per
/// household and one per subscription (the last it was told), never a queue, so a
/// subscriber that reads slowly costs the same memory as a fast one; it is told the newest
/// end when it reads again (announcements coalesce). Announcements arrive from this
/// process's pushes and, through PostgreSQL `LISTEN forager_log`, from every other server
/// on the database; a sequence at or below what a household is known to end at changes
/// nothing, so hearing a push twice is harmless.
///
/// Subscriptions are bounded per token and per process; past either, ``subscribe(household:token:latest:)``
/// throws the refusal the route answers.
///
/// ```swift
/// let announcer = LiveAnnouncer(perToken: 2, total: 256)
/// let subscription = try announcer.subscribe(household: 7, token: "tok_1", latest: 12)
/// announcer.announce(household: 7, sequence: 13)
/// await subscription.next(timeout: .seconds(15))   // .announce(13)
/// ```
public final class LiveAnnouncer: Sendable {
  /// The most subscriptions one token may hold at once.
  public let perToken: Int
  /// The most subscriptions this process holds at once.
  public let total: Int

  private struct State {
    var nextID = 0
    var subscriptions: [Int: LiveSubscription] = [:]
    var byHousehold: [Int64: Set<Int>] = [:]
    var byToken: [String: Int] = [:]
    var latest: [Int64: Int64] = [:]
    var closed = false
  }

  private let state = Mutex(State())

  public init(perToken: Int, total: Int) {
    self.perToken = max(1, perToken)
    self.total = max(1, total)
  }

  /// Opens a subscription to a household's announcements, starting from `latest` (the
  /// log's end as the storage reported it when the subscriber arrived).
  /// - Throws: ``ServerError`` `429 live-token-limit` past ``perToken``, `503 live-full`
  ///   past ``total``, `503 live-closing` once the server is shutting down.
  public func subscribe(household: Int64, token: String, latest: Int64) throws(ServerError) -> LiveSubscription {
    let result: Result<LiveSubscription, ServerError> = state.withLock { state in
      if state.closed { return .failure(.liveClosing) }
      if state.byToken[token, default: 0] >= perToken { return .failure(.liveTokenLimit(token: token, limit: perToken)) }
      if state.subscriptions.count >= total { return .failure(.liveFull(limit: total)) }
      let known = max(latest, state.latest[household] ?? 0)
      state.latest[household] = known
      state.nextID += 1
      let subscription = LiveSubscription(id: state.nextID, household: household, token: token, told: latest, announcer: self)
      subscription.offer(known)
      state.subscriptions[subscription.id] = subscription
      state.byHousehold[household, default: []].insert(subscription.id)
      state.byToken[token, default: 0] += 1
      return .success(subscription)
    }
    return try result.get()
  }

  /// The household's log now ends at `sequence`: wakes its subscribers that were told less.
  public func announce(household: Int64, sequence: Int64) {
    let woken: [LiveSubscription] = state.withLock { state in
      guard let ids = state.byHousehold[household], sequence > state.latest[household] ?? 0 else { return [] }
      state.latest[household] = sequence
      return ids.compactMap { state.subscriptions[$0] }
    }
    for subscription in woken { subscription.offer(sequence) }
  }

  /// The households with at least one subscriber (a listener that reconnects reads their
  /// logs' ends again: it may have missed notifications while it was away).
  public var households: [Int64] { state.withLock { Array($0.byHousehold.keys) } }

  /// How many subscriptions are open.
  public var count: Int { state.withLock { $0.subscriptions.count } }

  /// Closes every subscription (each stream ends with a `closing` event) and refuses new ones:
  /// the server is shutting down.
  public func closeAll() {
    let all = state.withLock { state in
      state.closed = true
      return Array(state.subscriptions.values)
    }
    for subscription in all { subscription.close(.shutdown) }
  }

  func remove(_ subscription: LiveSubscription) {
    state.withLock { state in
      guard state.subscriptions.removeValue(forKey: subscription.id) != nil else { return }
      state.byHousehold[subscription.household]?.remove(subscription.id)
      if state.byHousehold[subscription.household]?.isEmpty == true {
        state.byHousehold[subscription.household] = nil
        state.latest[subscription.household] = nil
      }
      state.byToken[subscription.token, default: 1] -= 1
      if state.byToken[subscription.token] == 0 { state.byToken[subscription.token] = nil }
    }
  }
}

/// One subscriber's place: the newest end of the log it was offered and the last it was told.
///
/// ``next(timeout:)`` waits for an end past the one told, a close, or the timeout (a
/// heartbeat is due). It holds two numbers and at most one waiting reader, however many
/// announcements arrive while nobody reads.
public final class LiveSubscription: Sendable {
  /// Why a subscription ended.
  public enum CloseReason: String, Sendable {
    /// The server is shutting down: subscribe again (to another instance) after a moment.
    case shutdown
    /// The subscriber did not take an event within the write timeout.
    case slowReader = "slow-reader"
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
  private weak let announcer: LiveAnnouncer?

  private struct State {
    var offered: Int64
    var told: Int64
    var closed: CloseReason?
    var waiter: CheckedContinuation<Void, Never>?
    var ended = false
  }

  private let state: Mutex<State>

  init(id: Int, household: Int64, token: String, told: Int64, announcer: LiveAnnouncer) {
    self.id = id
    self.household = household
    self.token = token
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

  /// Ends the subscription: a waiting ``next(timeout:)`` returns ``Next/closed(_:)``.
  public func close(_ reason: CloseReason) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.closed == nil { state.closed = reason }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
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

  /// Waits for an announcement past the last told, a close, or `timeout`.
  public func next(timeout: Duration) async -> Next {
    if let ready = take() { return ready }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { [self] in
        try? await Task.sleep(for: timeout)
        wake()
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = state.withLock { state -> Bool in
            if state.closed != nil || state.offered > state.told || state.waiter != nil { return true }
            state.waiter = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        wake()
      }
      group.cancelAll()
    }
    if let ready = take() { return ready }
    if Task.isCancelled { return .closed(.shutdown) }
    return .heartbeat(state.withLock { $0.told })
  }

  private func take() -> Next? {
    state.withLock { state in
      if let reason = state.closed { return .closed(reason) }
      guard state.offered > state.told else { return nil }
      state.told = state.offered
      return .announce(state.offered)
    }
  }

  private func wake() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
