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
