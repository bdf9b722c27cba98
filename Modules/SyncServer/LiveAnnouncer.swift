import Dispatch
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
/// While pushes of a household are under way in this process (``duringPush(of:_:)``), its
/// announcements are held: the push about to commit will end the log further, and telling
/// the subscribers now would have each of their phones pull twice. A held announcement goes
/// out, with the newest end, when the last of those pushes ends, or after
/// ``holdWhilePushing`` when they never all end at once (a household whose devices push
/// flat out is announced once a hold, not once a commit).
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
  /// The longest an announcement waits for the household's pushes under way to end; zero:
  /// announcements are never held.
  public let holdWhilePushing: Duration

  /// Runs `action` once `delay` has passed (``init(perToken:total:holdWhilePushing:after:)``).
  public typealias Scheduler = @Sendable (_ delay: Duration, _ action: @escaping @Sendable () -> Void) -> Void

  private struct State {
    var nextID = 0
    var subscriptions: [Int: LiveSubscription] = [:]
    var byHousehold: [Int64: Set<Int>] = [:]
    var byToken: [String: Int] = [:]
    var latest: [Int64: Int64] = [:]
    /// Pushes under way per household (only households with some).
    var pushing: [Int64: Int] = [:]
    /// Households whose newest end is held, each with the number of its hold (a release
    /// timer of an earlier hold leaves a later one alone).
    var held: [Int64: Int] = [:]
    var holds = 0
    var closed = false
    /// Credential changes heard (``LiveAnnouncer/credentialsChanged()``).
    var credentialChanges = 0

    /// The household's subscribers and the end to offer them, when it has both.
    func audience(of household: Int64) -> Audience? {
      guard let ids = byHousehold[household], let sequence = latest[household] else { return nil }
      return Audience(subscribers: ids.compactMap { subscriptions[$0] }, sequence: sequence)
    }
  }

  /// Subscribers to wake, and the end each is offered.
  private struct Audience {
    let subscribers: [LiveSubscription]
    let sequence: Int64
  }

  private let state = Mutex(State())
  private let after: Scheduler

  /// - Parameters:
  ///   - holdWhilePushing: ``holdWhilePushing``, at most 10 s.
  ///   - after: how the end of a hold is timed (default: a dispatch timer); tests pass one
  ///     they fire by hand.
  public init(perToken: Int, total: Int, holdWhilePushing: Duration = .zero, after: Scheduler? = nil) {
    self.perToken = max(1, perToken)
    self.total = max(1, total)
    self.holdWhilePushing = min(max(.zero, holdWhilePushing), .seconds(10))
    self.after = after ?? Self.dispatchAfter
  }

  private static func dispatchAfter(_ delay: Duration, _ action: @escaping @Sendable () -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval, execute: action)
  }

  /// Opens a subscription to a household's announcements, starting from `latest` (the
  /// log's end as the storage reported it when the subscriber arrived).
  /// - Parameter access: what the subscription's credential is checked by while it is open
  ///   (the live route's ``LiveCredentialCheck``); nil: never checked.
  /// - Throws: ``ServerError`` `429 live-token-limit` past ``perToken``, `503 live-full`
  ///   past ``total``, `503 live-closing` once the server is shutting down.
  public func subscribe(
    household: Int64, token: String, latest: Int64, access: LiveSubscription.Access? = nil
  ) throws(ServerError) -> LiveSubscription {
    let result: Result<LiveSubscription, ServerError> = state.withLock { state in
      if state.closed { return .failure(.liveClosing) }
      if state.byToken[token, default: 0] >= perToken { return .failure(.liveTokenLimit(token: token, limit: perToken)) }
      if state.subscriptions.count >= total { return .failure(.liveFull(limit: total)) }
      let known = max(latest, state.latest[household] ?? 0)
      state.latest[household] = known
      state.nextID += 1
      let subscription = LiveSubscription(
        id: state.nextID, household: household, token: token, access: access, told: latest, announcer: self)
      subscription.offer(known)
      state.subscriptions[subscription.id] = subscription
      state.byHousehold[household, default: []].insert(subscription.id)
      state.byToken[token, default: 0] += 1
      return .success(subscription)
    }
    return try result.get()
  }

  /// The household's log now ends at `sequence`: wakes its subscribers that were told less,
  /// or holds the announcement while pushes of the household are under way.
  public func announce(household: Int64, sequence: Int64) {
    enum Outcome { case none, offer(Audience?), hold(Int) }
    let outcome: Outcome = state.withLock { state in
      guard state.byHousehold[household] != nil, sequence > state.latest[household] ?? 0 else { return .none }
      state.latest[household] = sequence
      if state.pushing[household] != nil {
        guard state.held[household] == nil else { return .none }
        state.holds += 1
        state.held[household] = state.holds
        return .hold(state.holds)
      }
      state.held[household] = nil
      return .offer(state.audience(of: household))
    }
    switch outcome {
    case .none: break
    case .offer(let audience): Self.tell(audience)
    case .hold(let hold): after(holdWhilePushing) { [weak self] in self?.release(household, hold: hold) }
    }
  }

  /// Runs one push of `household`: announcements of the household made meanwhile are held
  /// (at most ``holdWhilePushing``) and go out when it and the others under way have ended.
  public func duringPush<T>(of household: Int64, _ body: () async throws -> T) async rethrows -> T {
    // Without a hold nothing waits for pushes, so none are counted.
    guard holdWhilePushing > .zero else { return try await body() }
    state.withLock { $0.pushing[household, default: 0] += 1 }
    defer { pushEnded(household) }
    return try await body()
  }

  private func pushEnded(_ household: Int64) {
    let released = state.withLock { state -> Audience? in
      let left = state.pushing[household, default: 1] - 1
      state.pushing[household] = left > 0 ? left : nil
      guard left == 0, state.held.removeValue(forKey: household) != nil else { return nil }
      return state.audience(of: household)
    }
    Self.tell(released)
  }

  /// The hold numbered `hold` has lasted ``holdWhilePushing``: its household's subscribers
  /// hear the newest end, pushes under way or not.
  private func release(_ household: Int64, hold: Int) {
    let released = state.withLock { state -> Audience? in
      guard state.held[household] == hold else { return nil }
      state.held[household] = nil
      return state.audience(of: household)
    }
    Self.tell(released)
  }

  private static func tell(_ audience: Audience?) {
    guard let audience else { return }
    for subscription in audience.subscribers { subscription.offer(audience.sequence) }
  }

  /// The households with at least one subscriber (a listener that reconnects reads their
  /// logs' ends again: it may have missed notifications while it was away).
  public var households: [Int64] { state.withLock { Array($0.byHousehold.keys) } }

  /// How many subscriptions are open.
  public var count: Int { state.withLock { $0.subscriptions.count } }

  /// Something a credential says may have changed — a token revoked or its expiry moved, a
  /// household or device renamed or deleted — on this or any server instance: the open
  /// subscriptions' tokens are looked up again (``LiveCredentialCheck``), and the streams of
  /// those revoked, expired or gone end. A server on PostgreSQL calls it on each
  /// `forager_credentials` notification (`CredentialWatcher`), a `MemoryHouseholdStorage`
  /// on each such change made through it.
  public func credentialsChanged() { state.withLock { $0.credentialChanges += 1 } }

  /// How many credential changes were heard: a checker compares it with the count it last saw.
  var credentialChanges: Int { state.withLock { $0.credentialChanges } }

  /// The open subscriptions.
  var subscriptions: [LiveSubscription] { state.withLock { Array($0.subscriptions.values) } }

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
        state.held[subscription.household] = nil
      }
      state.byToken[subscription.token, default: 1] -= 1
      if state.byToken[subscription.token] == 0 { state.byToken[subscription.token] = nil }
    }
  }
}
