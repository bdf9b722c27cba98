import Foundation
import Synchronization

/// Turns at the CPU-heavy part of a push — decoding its batch and checking every change
/// against `ChangeRules` — handed out fairly, so that one household pushing large batches
/// flat out cannot take the server's CPU from the others.
///
/// - At most ``Limits/slots`` checks hold a turn at once in the process (by default half
///   the cores: the checks run on Swift's cooperative threads, one per core, and the rest
///   stay free for every other request), at most ``Limits/perHousehold`` of one household
///   and ``Limits/perAddress`` of one client address.
/// - A check that cannot have a turn waits; the next free turn goes round the households
///   that wait (the one served longest ago first), not to whoever came first.
/// - A check holding its turn for longer than ``Limits/quantum`` (2 ms) while another household's check
///   waits gives its turn up and waits again ahead of its own household's other checks
///   (``Turn/checkpoint(deadline:)``, between changes): a household's 4 MiB batch is checked
///   in slices, and another household's check waits about a slice per household ahead of it,
///   not a whole batch.
/// - At most ``Limits/queue`` checks of one household, and of one address, wait at once;
///   past it a check is refused at once (``Refusal/queueFull``), holding no body in memory.
///
/// Waiting ends at the check's deadline (nil from ``turn(household:address:deadline:)``),
/// or when the waiting task is cancelled; either way the check's place is given up.
package final class CheckTurns: Sendable {
  package struct Limits: Sendable {
    package var slots: Int
    package var perHousehold: Int
    package var perAddress: Int
    package var queue: Int
    /// How long a check keeps its turn while another household's check waits.
    package var quantum: Duration

    package init(slots: Int, perHousehold: Int, perAddress: Int, queue: Int, quantum: Duration = CheckTurns.quantum) {
      self.slots = slots
      self.perHousehold = perHousehold
      self.perAddress = perAddress
      self.queue = queue
      self.quantum = quantum
    }
  }

  /// Why a check was refused before it waited.
  package enum Refusal: Error, Equatable {
    /// `queue` checks of the household (`household` true) or of the address already wait.
    case queueFull(household: Bool)
  }

  /// How long a check keeps its turn while another household's check waits: 2 ms.
  package static let quantum = Duration.milliseconds(2)

  package let limits: Limits

  private struct Waiter {
    let id: UInt64
    let household: Int64
    let address: String?
    var continuation: CheckedContinuation<Bool, Never>?
  }

  private struct State {
    var running = 0
    var runningByHousehold: [Int64: Int] = [:]
    var runningByAddress: [String: Int] = [:]
    /// The checks waiting, per household, in the order they take turns.
    var queues: [Int64: [Waiter]] = [:]
    /// The households with checks waiting, the one served longest ago first.
    var ring: [Int64] = []
    var waitingByAddress: [String: Int] = [:]
    /// Waiters given a turn before they suspended.
    var admittedEarly: Set<UInt64> = []
    var nextID: UInt64 = 0
  }

  private let state = Mutex(State())

  package init(_ limits: Limits) {
    self.limits = Limits(
      slots: max(1, limits.slots), perHousehold: max(1, limits.perHousehold), perAddress: max(1, limits.perAddress),
      queue: max(0, limits.queue), quantum: max(.zero, limits.quantum))
  }

  /// How many checks hold a turn, and how many wait, now.
  package var counts: (running: Int, waiting: Int) {
    state.withLock { state in (state.running, state.queues.values.reduce(0) { $0 + $1.count }) }
  }

  /// A turn for a check of `household` from `address` (nil: not counted by address), or nil
  /// when none came before `deadline` or the task was cancelled.
  /// - Throws: ``Refusal/queueFull(household:)`` when no turn is free and as many of its
  ///   household's or address's checks wait already.
  package func turn(household: Int64, address: String?, deadline: ContinuousClock.Instant) async throws(Refusal) -> Turn? {
    let (ticket, resumed) = try state.withLock { state throws(Refusal) -> (Ticket, [CheckedContinuation<Bool, Never>]) in
      let householdWaiting = state.queues[household]?.count ?? 0
      let addressWaiting = address.map { state.waitingByAddress[$0, default: 0] } ?? 0
      let ticket = enqueue(household, address, front: false, &state)
      // At rest no waiter could take a free turn, so this gives one to this check or none.
      let resumed = dispatch(&state)
      if state.admittedEarly.contains(ticket.id) { return (ticket, resumed) }
      guard householdWaiting < limits.queue, addressWaiting < limits.queue else {
        _ = remove(ticket, &state)
        throw .queueFull(household: householdWaiting >= limits.queue)
      }
      return (ticket, resumed)
    }
    for continuation in resumed { continuation.resume(returning: true) }
    guard await wait(ticket, deadline: deadline) else { return nil }
    return Turn(self, household: household, address: address)
  }

  /// One check's turn, used by one task: given up at its checkpoints while others wait,
  /// and ended once the check ends.
  package final class Turn {
    private let turns: CheckTurns
    let household: Int64
    let address: String?
    private var held = true
    private var sliceStart = ContinuousClock.now

    fileprivate init(_ turns: CheckTurns, household: Int64, address: String?) {
      self.turns = turns
      self.household = household
      self.address = address
    }

    /// Called between pieces of work: false once `deadline` has passed or the task is
    /// cancelled (the turn is no longer held then). After ``Limits/quantum`` it gives the turn up
    /// when another household's check waits, and waits for it again.
    package func checkpoint(deadline: ContinuousClock.Instant) async -> Bool {
      guard held else { return false }
      let now = ContinuousClock.now
      guard now < deadline, !Task.isCancelled else {
        end()
        return false
      }
      guard now - sliceStart >= turns.limits.quantum else { return true }
      guard turns.othersWait(besides: household, address) else {
        sliceStart = now
        return true
      }
      let ticket = turns.pause(household, address)
      held = await turns.wait(ticket, deadline: deadline)
      sliceStart = .now
      return held
    }

    /// Gives the turn up (once).
    package func end() {
      guard held else { return }
      held = false
      turns.release(household, address)
    }

    deinit { if held { turns.release(household, address) } }
  }

  // MARK: Waiting

  /// A waiting check's place.
  private struct Ticket {
    let id: UInt64
    let household: Int64
  }

  /// Waits until the check of `ticket` is given a turn (true), or gives its place up at
  /// `deadline` or on cancellation (false).
  private func wait(_ ticket: Ticket, deadline: ContinuousClock.Instant) async -> Bool {
    if state.withLock({ $0.admittedEarly.remove(ticket.id) != nil }) { return true }
    return await withTaskGroup(of: Void.self) { group in
      group.addTask {
        let remaining = deadline - .now
        if remaining > .zero { await CancellableSleep.sleep(for: remaining) }
        if !Task.isCancelled { self.abandon(ticket) }
      }
      defer { group.cancelAll() }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
          let outcome = state.withLock { state -> Bool? in
            if state.admittedEarly.remove(ticket.id) != nil { return true }
            guard let index = state.queues[ticket.household]?.firstIndex(where: { $0.id == ticket.id }) else { return false }
            state.queues[ticket.household]?[index].continuation = continuation
            return nil
          }
          if let outcome { continuation.resume(returning: outcome) }
        }
      } onCancel: {
        abandon(ticket)
      }
    }
  }

  /// Takes the check of `ticket` out of its queue and resumes it with false; nothing when
  /// it was given a turn already.
  private func abandon(_ ticket: Ticket) {
    state.withLock { remove(ticket, &$0) }?.continuation?.resume(returning: false)
  }

  // MARK: Turns

  /// Gives a turn up and queues its check again, first of its household's, its household
  /// last in the ring.
  private func pause(_ household: Int64, _ address: String?) -> Ticket {
    let (ticket, resumed) = state.withLock { state -> (Ticket, [CheckedContinuation<Bool, Never>]) in
      let ticket = enqueue(household, address, front: true, &state)
      free(household, address, &state)
      return (ticket, dispatch(&state))
    }
    for continuation in resumed { continuation.resume(returning: true) }
    return ticket
  }

  private func release(_ household: Int64, _ address: String?) {
    let resumed = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      free(household, address, &state)
      return dispatch(&state)
    }
    for continuation in resumed { continuation.resume(returning: true) }
  }

  /// Whether another household's check waits that could take this turn.
  private func othersWait(besides household: Int64, _ address: String?) -> Bool {
    state.withLock { state in
      for other in state.ring where other != household && state.runningByHousehold[other, default: 0] < limits.perHousehold {
        for waiter in state.queues[other] ?? [] {
          let held = waiter.address.map { state.runningByAddress[$0, default: 0] - ($0 == address ? 1 : 0) } ?? 0
          if held < limits.perAddress { return true }
        }
      }
      return false
    }
  }

  // MARK: State (under the lock)

  /// Queues a waiter, first of its household's when `front`.
  private func enqueue(_ household: Int64, _ address: String?, front: Bool, _ state: inout State) -> Ticket {
    state.nextID += 1
    let waiter = Waiter(id: state.nextID, household: household, address: address)
    if state.queues[household] == nil {
      state.queues[household] = [waiter]
      state.ring.append(household)
    } else if front {
      state.queues[household]?.insert(waiter, at: 0)
    } else {
      state.queues[household]?.append(waiter)
    }
    if let address { state.waitingByAddress[address, default: 0] += 1 }
    return Ticket(id: waiter.id, household: household)
  }

  /// Takes a waiter out of its queue (and its household out of the ring when it was the last).
  private func remove(_ ticket: Ticket, _ state: inout State) -> Waiter? {
    guard var queue = state.queues[ticket.household], let index = queue.firstIndex(where: { $0.id == ticket.id }) else { return nil }
    let waiter = queue.remove(at: index)
    if queue.isEmpty {
      state.queues[ticket.household] = nil
      state.ring.removeAll { $0 == ticket.household }
    } else {
      state.queues[ticket.household] = queue
    }
    if let address = waiter.address { Self.decrement(&state.waitingByAddress, address) }
    return waiter
  }

  /// Hands the free turns to waiting checks, round the households in ring order; returns
  /// the continuations to resume (outside the lock).
  private func dispatch(_ state: inout State) -> [CheckedContinuation<Bool, Never>] {
    var resumed: [CheckedContinuation<Bool, Never>] = []
    while state.running < limits.slots, let (ringIndex, index) = firstEligible(state) {
      let household = state.ring.remove(at: ringIndex)
      guard var queue = state.queues[household] else { continue }
      let waiter = queue.remove(at: index)
      if queue.isEmpty {
        state.queues[household] = nil
      } else {
        state.queues[household] = queue
        state.ring.append(household)
      }
      if let address = waiter.address {
        Self.decrement(&state.waitingByAddress, address)
        state.runningByAddress[address, default: 0] += 1
      }
      state.running += 1
      state.runningByHousehold[household, default: 0] += 1
      if let continuation = waiter.continuation {
        resumed.append(continuation)
      } else {
        state.admittedEarly.insert(waiter.id)
      }
    }
    return resumed
  }

  /// Counts a turn out; its household, just served, goes last in the ring.
  private func free(_ household: Int64, _ address: String?, _ state: inout State) {
    if let index = state.ring.firstIndex(of: household) {
      state.ring.remove(at: index)
      state.ring.append(household)
    }
    state.running -= 1
    Self.decrement(&state.runningByHousehold, household)
    if let address { Self.decrement(&state.runningByAddress, address) }
  }

  private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
    let count = counts[key, default: 1] - 1
    counts[key] = count > 0 ? count : nil
  }

  /// The first waiter, in ring order, whose household and address are under their limits.
  private func firstEligible(_ state: State) -> (ringIndex: Int, index: Int)? {
    for (ringIndex, household) in state.ring.enumerated() where state.runningByHousehold[household, default: 0] < limits.perHousehold {
      for (index, waiter) in (state.queues[household] ?? []).enumerated()
      where waiter.address.map({ state.runningByAddress[$0, default: 0] < limits.perAddress }) ?? true {
        return (ringIndex, index)
      }
    }
    return nil
  }
}
