import Foundation
import SyncServer
import Synchronization
import Testing

/// The turns at batch checks (`CheckTurns`): they go round the households that wait, keep
/// to each household's and address's share, refuse a check past the waiting bound, and give
/// a waiting check's place up at its deadline or when it is cancelled.
@Suite(.timeLimit(.minutes(1)))
struct CheckTurnsTests {
  static func far() -> ContinuousClock.Instant { .now + .seconds(600) }

  /// Waits until `condition` holds; fails the test after 10 s instead of spinning forever.
  static func eventually(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      guard ContinuousClock.now < deadline else {
        Issue.record("never: \(what)")
        throw CancellationError()
      }
      try await Task.sleep(for: .milliseconds(1))
    }
  }

  /// The order in which checks got their turns.
  final class Order: Sendable {
    private let names = Mutex<[String]>([])
    func add(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
  }

  /// Starts a check of `household` that waits for its turn, records it, holds it until
  /// `release` is called for its name, and waits until it is queued.
  final class Checks: Sendable {
    let turns: CheckTurns
    let order = Order()
    private let releases = Mutex<[String: CheckedContinuation<Void, Never>]>([:])
    private let waiting = Mutex<Set<String>>([])

    init(_ limits: CheckTurns.Limits) { turns = CheckTurns(limits) }

    func start(_ name: String, household: Int64, address: String? = nil) async throws -> Task<Void, any Error> {
      let before = turns.counts
      let task = Task {
        guard let turn = try await turns.turn(household: household, address: address, deadline: CheckTurnsTests.far()) else { return }
        order.add(name)
        await withCheckedContinuation { continuation in releases.withLock { $0[name] = continuation } }
        turn.end()
      }
      // Until it runs or waits.
      try await CheckTurnsTests.eventually("\(name) runs or waits") {
        turns.counts.running + turns.counts.waiting > before.running + before.waiting
      }
      return task
    }

    /// Ends the turn of `name` once it has one.
    func release(_ name: String) async throws {
      var continuation: CheckedContinuation<Void, Never>?
      try await CheckTurnsTests.eventually("\(name) has its turn") {
        continuation = releases.withLock { $0.removeValue(forKey: name) }
        return continuation != nil
      }
      continuation?.resume()
    }

    /// Waits until `count` checks have had their turn.
    func waitUntil(turns count: Int) async throws {
      try await CheckTurnsTests.eventually("\(count) turns") { order.all.count >= count }
    }
  }

  @Test func theNextTurnGoesRoundTheHouseholdsNotToWhoeverCameFirst() async throws {
    let checks = Checks(.init(slots: 1, perHousehold: 1, perAddress: 4, queue: 8))
    var tasks = [try await checks.start("a1", household: 1)]
    for name in ["a2", "a3"] { tasks.append(try await checks.start(name, household: 1)) }
    tasks.append(try await checks.start("b1", household: 2))
    tasks.append(try await checks.start("c1", household: 3))
    #expect(checks.turns.counts == (1, 4))
    for name in ["a1", "b1", "c1", "a2", "a3"] { try await checks.release(name) }
    for task in tasks { try await task.value }
    #expect(checks.order.all == ["a1", "b1", "c1", "a2", "a3"])
    #expect(checks.turns.counts == (0, 0))
  }

  @Test func aHouseholdAndAnAddressHoldNoMoreThanTheirShareOfTheSlots() async throws {
    let checks = Checks(.init(slots: 4, perHousehold: 1, perAddress: 2, queue: 8))
    var tasks: [Task<Void, any Error>] = []
    tasks.append(try await checks.start("a1", household: 1, address: "192.0.2.1"))
    tasks.append(try await checks.start("a2", household: 1, address: "192.0.2.9"))
    tasks.append(try await checks.start("b1", household: 2, address: "192.0.2.1"))
    tasks.append(try await checks.start("c1", household: 3, address: "192.0.2.1"))
    tasks.append(try await checks.start("d1", household: 4, address: "192.0.2.2"))
    // a2 waits for its household, c1 for its address; d1 takes a third slot.
    try await checks.waitUntil(turns: 3)
    #expect(Set(checks.order.all) == ["a1", "b1", "d1"])
    #expect(checks.turns.counts == (3, 2))
    try await checks.release("b1")
    try await checks.waitUntil(turns: 4)
    #expect(checks.order.all.last == "c1")
    for name in ["a1", "a2", "c1", "d1"] { try await checks.release(name) }
    for task in tasks { try await task.value }
    #expect(checks.order.all.count == 5)
  }

  @Test func aCheckPastTheWaitingBoundIsRefusedAtOnce() async throws {
    let checks = Checks(.init(slots: 1, perHousehold: 1, perAddress: 8, queue: 2))
    var tasks = [try await checks.start("a1", household: 1, address: "192.0.2.1")]
    for name in ["a2", "a3"] { tasks.append(try await checks.start(name, household: 1, address: "192.0.2.1")) }
    await #expect(throws: CheckTurns.Refusal.queueFull(household: true)) {
      _ = try await checks.turns.turn(household: 1, address: "192.0.2.7", deadline: Self.far())
    }
    // Another household from the same address: the address's bound.
    await #expect(throws: CheckTurns.Refusal.queueFull(household: false)) {
      _ = try await checks.turns.turn(household: 2, address: "192.0.2.1", deadline: Self.far())
    }
    #expect(checks.turns.counts == (1, 2))
    for name in ["a1", "a2", "a3"] { try await checks.release(name) }
    for task in tasks { try await task.value }
  }

  @Test func aWaitingCheckGivesItsPlaceUpAtItsDeadlineOrWhenCancelled() async throws {
    let checks = Checks(.init(slots: 1, perHousehold: 1, perAddress: 8, queue: 8))
    let holder = try await checks.start("a1", household: 1)
    let late = try await checks.turns.turn(household: 2, address: nil, deadline: .now + .milliseconds(50))
    #expect(late == nil)
    #expect(checks.turns.counts == (1, 0))
    let cancelled = Task { try await checks.turns.turn(household: 3, address: nil, deadline: Self.far()) == nil }
    try await Self.eventually("a check waits") { checks.turns.counts.waiting == 1 }
    cancelled.cancel()
    #expect(try await cancelled.value)
    #expect(checks.turns.counts == (1, 0))
    try await checks.release("a1")
    try await holder.value
    #expect(checks.turns.counts == (0, 0))
  }

  @Test func aLongCheckGivesItsTurnUpBetweenChangesWhileAnotherHouseholdWaits() async throws {
    // Within its quantum (an hour here) a check keeps its turn though another household waits.
    let patient = CheckTurns(.init(slots: 1, perHousehold: 1, perAddress: 8, queue: 8, quantum: .seconds(3_600)))
    let holding = try #require(try await patient.turn(household: 1, address: nil, deadline: Self.far()))
    let waiting = Task {
      let turn = try await patient.turn(household: 2, address: nil, deadline: Self.far())
      turn?.end()
      return turn != nil
    }
    try await Self.eventually("a check waits") { patient.counts.waiting == 1 }
    let kept = await holding.checkpoint(deadline: Self.far())
    #expect(kept && patient.counts == (1, 1))
    holding.end()
    #expect(try await waiting.value)

    // Past its quantum (none here) it gives the turn up to the waiting household, and has it back after.
    let turns = CheckTurns(.init(slots: 1, perHousehold: 1, perAddress: 8, queue: 8, quantum: .zero))
    let order = Order()
    let long = try #require(try await turns.turn(household: 1, address: nil, deadline: Self.far()))
    let other = Task {
      let turn = try await turns.turn(household: 2, address: nil, deadline: Self.far())
      order.add("other")
      turn?.end()
    }
    try await Self.eventually("a check waits") { turns.counts.waiting == 1 }
    let keptAfterYielding = await long.checkpoint(deadline: Self.far())
    #expect(keptAfterYielding)
    order.add("long")
    try await other.value
    #expect(order.all == ["other", "long"])
    // With nobody waiting it keeps its turn; past its deadline it gives it up and says so.
    let keptAlone = await long.checkpoint(deadline: Self.far())
    #expect(keptAlone && turns.counts == (1, 0))
    let keptPastTheDeadline = await long.checkpoint(deadline: .now - .seconds(1))
    #expect(!keptPastTheDeadline)
    #expect(turns.counts == (0, 0))
  }
}
