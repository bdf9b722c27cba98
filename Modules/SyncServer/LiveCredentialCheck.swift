import Foundation
import Synchronization

/// Ends the live streams whose credential no longer holds, so a stream outlives its token's
/// revocation or expiry, or its household's deletion, by at most ``interval`` (and a lookup).
///
/// One task per process, running while subscriptions are open, not a timer per stream. Every
/// ``interval`` it compares each stream's token expiry with the server's clock, and after a
/// credential change the ``LiveAnnouncer`` heard (``LiveAnnouncer/credentialsChanged()``: a
/// PostgreSQL notification from any server or tool, or a change made through a
/// `MemoryHouseholdStorage`) it looks each open stream's token up again — once per token —
/// and closes the streams of tokens now revoked, expired or gone. Nothing is looked up while
/// no credential changed, so open streams cost the database nothing.
final class LiveCredentialCheck: Sendable {
  let announcer: LiveAnnouncer
  let storage: any HouseholdLog
  let clock: @Sendable () -> Date
  /// How often expiries are compared and changes looked for.
  let interval: Duration
  /// The longest one round of lookups may take; one that does not finish is tried again.
  let lookupTimeout: Duration
  private let running = Mutex(false)

  init(
    announcer: LiveAnnouncer, storage: any HouseholdLog, clock: @escaping @Sendable () -> Date, interval: Duration = .milliseconds(250),
    lookupTimeout: Duration = .seconds(10)
  ) {
    self.announcer = announcer
    self.storage = storage
    self.clock = clock
    self.interval = interval
    self.lookupTimeout = lookupTimeout
  }

  /// Starts the checking task unless it runs; it stops by itself once no subscription is open.
  func start() {
    let first = running.withLock { running -> Bool in
      defer { running = true }
      return !running
    }
    if first { Task { await self.run() } }
  }

  private func run() async {
    // The credential changes each open stream's token was looked up after (by the route, or
    // here), by subscription: a stream is looked at again once the announcer heard more.
    var checked: [Int: Int] = [:]
    while true {
      await CancellableSleep.sleep(for: interval)
      let subscriptions = announcer.subscriptions
      if subscriptions.isEmpty {
        let announcer = announcer
        if running.withLock({ running -> Bool in
          guard announcer.count == 0 else { return false }
          running = false
          return true
        }) {
          return
        }
        continue
      }
      let now = clock()
      let changes = announcer.credentialChanges
      var stale: [LiveSubscription] = []
      var open: Set<Int> = []
      for subscription in subscriptions {
        guard let access = subscription.access else { continue }
        if now >= access.expiresAt {
          subscription.close(.tokenExpired)
          continue
        }
        open.insert(subscription.id)
        if checked[subscription.id, default: access.changesSeen] < changes { stale.append(subscription) }
      }
      checked = checked.filter { open.contains($0.key) }
      if !stale.isEmpty, await recheck(stale, now: now) {
        for subscription in stale { checked[subscription.id] = changes }
      }
    }
  }

  /// Looks up each token of `subscriptions` once and closes the streams of those that no
  /// longer hold; false when the lookups did not all finish (they are tried again).
  private func recheck(_ subscriptions: [LiveSubscription], now: Date) async -> Bool {
    let byToken = Dictionary(grouping: subscriptions) { $0.access?.tokenHash ?? Data() }
    let storage = storage
    let finished = try? await withDeadline(lookupTimeout) {
      var verdicts: [Data: LiveSubscription.CloseReason] = [:]
      for hash in byToken.keys {
        let credential = try await storage.credential(forTokenHash: hash)
        if let reason = Self.reason(credential, now: now) { verdicts[hash] = reason }
      }
      return verdicts
    }
    guard let verdicts = finished ?? nil else { return false }
    for (hash, reason) in verdicts { for subscription in byToken[hash] ?? [] { subscription.close(reason) } }
    return true
  }

  /// Why a stream of this credential must end, or nil while it holds.
  static func reason(_ credential: Credential?, now: Date) -> LiveSubscription.CloseReason? {
    guard let credential else { return .tokenUnknown }
    if credential.revokedAt != nil { return .tokenRevoked }
    if now >= credential.expiresAt { return .tokenExpired }
    return nil
  }
}
