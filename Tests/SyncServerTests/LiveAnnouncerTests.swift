import HTTPTypes
import SyncServer
import Synchronization
import Testing

/// The live channel's hub without a socket: announcements coalesce, subscriptions are
/// bounded per token and per process, and shutting down closes every stream.
@Suite(.timeLimit(.minutes(5)))
struct LiveAnnouncerTests {
  @Test func aSlowReaderIsToldTheNewestEndOnlyAndHoldsNoQueue() async throws {
    let announcer = LiveAnnouncer(perToken: 2, total: 10)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 3)
    for sequence in 4...10_003 { announcer.announce(household: 1, sequence: Int64(sequence)) }
    #expect(await subscription.next(timeout: .seconds(60)) == .announce(10_003))
    // Nothing more is pending: the next wait is a heartbeat with what it was told.
    #expect(await subscription.next(timeout: .milliseconds(10)) == .heartbeat(10_003))
    // An end heard again or an older one changes nothing.
    announcer.announce(household: 1, sequence: 10_003)
    announcer.announce(household: 1, sequence: 9)
    #expect(await subscription.next(timeout: .milliseconds(10)) == .heartbeat(10_003))
  }

  /// The route's watchdog makes heartbeats due; an announcement ready at the same time
  /// goes first and takes the heartbeat's place, and a waiting reader wakes for one.
  @Test func aHeartbeatMadeDueWakesTheReaderUnlessAnAnnouncementIsReady() async throws {
    let announcer = LiveAnnouncer(perToken: 2, total: 10)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 5)
    subscription.heartbeatDue()
    #expect(await subscription.next() == .heartbeat(5))
    subscription.heartbeatDue()
    announcer.announce(household: 1, sequence: 6)
    #expect(await subscription.next() == .announce(6))
    // Whether the reader is waiting yet or not, the heartbeat reaches it once.
    async let waiting = subscription.next()
    try await Task.sleep(for: .milliseconds(20))
    subscription.heartbeatDue()
    #expect(await waiting == .heartbeat(6))
  }

  @Test func anotherHouseholdsPushesAreNotAnnounced() async throws {
    let announcer = LiveAnnouncer(perToken: 2, total: 10)
    let smith = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    announcer.announce(household: 2, sequence: 5)
    #expect(await smith.next(timeout: .milliseconds(10)) == .heartbeat(0))
  }

  @Test func aWaitingSubscriberWakesOnAnAnnouncement() async throws {
    let announcer = LiveAnnouncer(perToken: 2, total: 10)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    async let next = subscription.next(timeout: .seconds(600))
    // Announce until the waiter took it (it may start waiting after the first announcement).
    var sequence: Int64 = 0
    while subscription.told == 0 {
      sequence += 1
      announcer.announce(household: 1, sequence: sequence)
      try await Task.sleep(for: .milliseconds(5))
    }
    if case .announce(let told) = await next { #expect(told >= 1) } else { Issue.record("no announcement") }
  }

  @Test func subscriptionsAreBoundedPerTokenAndPerProcess() throws {
    let announcer = LiveAnnouncer(perToken: 2, total: 3)
    let first = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    _ = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    #expect(throws: ServerError.self) { try announcer.subscribe(household: 1, token: "tok_a", latest: 0) }
    do {
      _ = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    } catch {
      #expect(error.code == "live-token-limit" && error.status == .tooManyRequests && error.retryAfter != nil)
    }
    _ = try announcer.subscribe(household: 1, token: "tok_b", latest: 0)
    do {
      _ = try announcer.subscribe(household: 2, token: "tok_c", latest: 0)
      Issue.record("a fourth subscription was taken")
    } catch {
      #expect(error.code == "live-full" && error.status == .serviceUnavailable)
    }
    // A stream that ends frees its place, once however often it ends.
    first.end()
    first.end()
    #expect(announcer.count == 2)
    _ = try announcer.subscribe(household: 2, token: "tok_c", latest: 0)
    #expect(announcer.count == 3)
  }

  @Test func shuttingDownClosesEveryStreamAndRefusesNewOnes() async throws {
    let announcer = LiveAnnouncer(perToken: 2, total: 10)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    announcer.closeAll()
    #expect(await subscription.next(timeout: .seconds(600)) == .closed(.shutdown))
    do {
      _ = try announcer.subscribe(household: 1, token: "tok_b", latest: 0)
      Issue.record("a subscription was taken while shutting down")
    } catch {
      #expect(error.code == "live-closing")
    }
  }

  /// Release timers fired by hand: each scheduled action waits here until the test runs it.
  final class ManualTimers: Sendable {
    private let pending = Mutex<[(delay: Duration, action: @Sendable () -> Void)]>([])

    var scheduler: LiveAnnouncer.Scheduler { { delay, action in self.pending.withLock { $0.append((delay, action)) } } }
    var delays: [Duration] { pending.withLock { $0.map(\.delay) } }

    func fireAll() {
      let due = pending.withLock { state in
        defer { state = [] }
        return state
      }
      for timer in due { timer.action() }
    }
  }

  /// A push under way will end the log further: what commits meanwhile is announced once,
  /// the newest end, when the pushes under way have ended.
  @Test func announcementsWaitForTheHouseholdsPushesUnderWay() async throws {
    let timers = ManualTimers()
    let announcer = LiveAnnouncer(perToken: 2, total: 10, holdWhilePushing: .milliseconds(100), after: timers.scheduler)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    let (released, release) = AsyncStream.makeStream(of: Void.self)
    let (begun, begin) = AsyncStream.makeStream(of: Void.self)
    // A second push of the household is under way while the first commits.
    let second = Task {
      await announcer.duringPush(of: 1) {
        begin.yield()
        for await _ in released { break }
      }
    }
    for await _ in begun { break }
    await announcer.duringPush(of: 1) {}
    announcer.announce(household: 1, sequence: 1)
    announcer.announce(household: 1, sequence: 2)
    #expect(timers.delays == [.milliseconds(100)])
    #expect(await subscription.next(timeout: .milliseconds(20)) == .heartbeat(0))
    // Another household is not held by these pushes.
    let neighbour = try announcer.subscribe(household: 2, token: "tok_b", latest: 0)
    announcer.announce(household: 2, sequence: 7)
    #expect(await neighbour.next(timeout: .seconds(60)) == .announce(7))
    // The last push under way ends: the newest end goes out.
    announcer.announce(household: 1, sequence: 3)
    release.yield()
    await second.value
    #expect(await subscription.next(timeout: .seconds(60)) == .announce(3))
    // The hold's timer, firing after it was released, changes nothing.
    timers.fireAll()
    #expect(await subscription.next(timeout: .milliseconds(20)) == .heartbeat(3))
    // With no push under way, a commit is announced at once, without a timer.
    announcer.announce(household: 1, sequence: 4)
    #expect(await subscription.next(timeout: .seconds(60)) == .announce(4))
    #expect(timers.delays.isEmpty)
  }

  /// A household whose pushes never all end at once is still announced: once a hold.
  @Test func aHoldEndsAfterItsTimeWhilePushesGoOn() async throws {
    let timers = ManualTimers()
    let announcer = LiveAnnouncer(perToken: 2, total: 10, holdWhilePushing: .milliseconds(100), after: timers.scheduler)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    await announcer.duringPush(of: 1) {
      announcer.announce(household: 1, sequence: 1)
      announcer.announce(household: 1, sequence: 2)
      #expect(await subscription.next(timeout: .milliseconds(20)) == .heartbeat(0))
      timers.fireAll()
      #expect(await subscription.next(timeout: .seconds(60)) == .announce(2))
      // The next commit under the same pushes starts a new hold.
      announcer.announce(household: 1, sequence: 3)
      #expect(timers.delays == [.milliseconds(100)])
      timers.fireAll()
      #expect(await subscription.next(timeout: .seconds(60)) == .announce(3))
      // A push that fails still ends: the pushes under way are counted however they end.
      await #expect(throws: CancellationError.self) { try await announcer.duringPush(of: 1) { throw CancellationError() } }
    }
    announcer.announce(household: 1, sequence: 4)
    #expect(await subscription.next(timeout: .seconds(60)) == .announce(4))
    #expect(timers.delays.isEmpty)
  }

  /// Without a hold (the default), a commit while a push is under way is announced at once.
  @Test func withoutAHoldEveryCommitIsAnnouncedAtOnce() async throws {
    let timers = ManualTimers()
    let announcer = LiveAnnouncer(perToken: 2, total: 10, after: timers.scheduler)
    let subscription = try announcer.subscribe(household: 1, token: "tok_a", latest: 0)
    await announcer.duringPush(of: 1) {
      announcer.announce(household: 1, sequence: 1)
      #expect(await subscription.next(timeout: .seconds(60)) == .announce(1))
    }
    #expect(timers.delays.isEmpty)
  }
}
