import Dispatch
import Synchronization

extension Store {
  /// The value of a query now and after every commit that may change it, as an async
  /// sequence.
  ///
  /// The first element is the query's value when iteration starts. After that, each
  /// committed transaction whose changes touch `region` (by this process or, on a file
  /// store, by another) marks the sequence changed, and the next element is the query
  /// run again in a read transaction of its own, never inside the writer's. Commits made
  /// while the consumer is busy are coalesced: the consumer gets one value read after the
  /// last of them, so a consumer that never asks holds one flag, not a queue, and a
  /// writer never waits for it. The last element read is never older than the last commit
  /// that touched `region` before it was read. Cancelling the consuming task ends the
  /// sequence; a query that throws delivers its error and ends it.
  ///
  /// ```swift
  /// let produce = store.observe(StoreRegion(.category)) { reader in
  ///   try reader.count(RecordQuery(.category))
  /// }
  /// for try await count in produce { print("\(count) categories") }
  /// ```
  /// - Parameters:
  ///   - region: every kind the query reads (and the metadata table, if it reads it). A
  ///     commit outside it does not wake the sequence; a kind left out makes the query's
  ///     value stale when that kind changes.
  ///   - value: the query, run in a read transaction.
  public func observe<Value: Sendable>(
    _ region: StoreRegion, value: @escaping @Sendable (any StoreReader) throws -> Value
  ) -> StoreObservation<Value> {
    StoreObservation(store: self, region: region, value: value)
  }
}

/// A query's value now and after every commit that may change it: the async sequence
/// ``Store/observe(_:value:)`` returns. Each iterator watches the store on its own.
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
  /// The query's value.
  public typealias Element = Value

  let store: any Store
  /// What the query reads.
  public let region: StoreRegion
  let value: @Sendable (any StoreReader) throws -> Value

  /// Starts watching the store: the first call to `next()` reads the current value.
  public func makeAsyncIterator() -> Iterator {
    let signal = ChangeSignal()
    let subscription = store.subscribe(to: region) { signal.markChanged() }
    return Iterator(store: store, value: value, signal: signal, subscription: subscription)
  }

  /// Reads the query when the store changed since the last element, waiting otherwise.
  public struct Iterator: AsyncIteratorProtocol {
    let store: any Store
    let value: @Sendable (any StoreReader) throws -> Value
    let signal: ChangeSignal
    var subscription: StoreSubscription?

    /// The query's next value, nil once the task is cancelled.
    /// - Throws: the query's error, after which the sequence ends.
    public mutating func next() async throws -> Value? {
      guard subscription != nil else { return nil }
      guard await signal.waitForChange() else {
        finish()
        return nil
      }
      do {
        return try store.read(value)
      } catch {
        finish()
        throw error
      }
    }

    private mutating func finish() {
      subscription?.cancel()
      subscription = nil
    }
  }
}

/// Whether the store changed since the consumer last asked, and the consumer waiting to
/// hear it: one flag and at most one continuation, whatever the number of commits.
final class ChangeSignal: Sendable {
  private struct State {
    /// Starts set, so the first element is the current value.
    var changed = true
    var cancelled = false
    var waiter: CheckedContinuation<Bool, Never>?
  }

  private let state = Mutex(State())

  /// Marks a change, waking the waiting consumer if there is one. Called by the writer
  /// after its commit: it only sets a flag or hands the waiting task to ``Waker``.
  func markChanged() {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let waiter = state.waiter else {
        state.changed = true
        return nil
      }
      state.waiter = nil
      return waiter
    }
    if let waiter { Waker.shared.resume(waiter) }
  }

  /// Returns true at once when a change is marked (clearing it), else waits for one;
  /// false when the task is cancelled.
  func waitForChange() async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let ready = state.withLock { state -> Bool? in
          if state.cancelled { return false }
          if state.changed {
            state.changed = false
            return true
          }
          state.waiter = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        state.cancelled = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: false)
    }
  }
}

/// Resumes the consumers a commit woke, off the writer's thread.
///
/// Resuming a task hands it to the executor, which may wake a thread for it; done by the
/// writer for each of many observers, that work would grow with their number on the path
/// of every write. The writer instead adds each woken consumer to a list — a lock and an
/// append — and the first one it adds after a drain schedules one: a background queue
/// resumes them all. A consumer waits one queue hop longer.
final class Waker: Sendable {
  static let shared = Waker()

  private let pending = Mutex<[CheckedContinuation<Bool, Never>]>([])
  private let queue = DispatchQueue(label: "forager.observation-waker", qos: .userInitiated)

  /// Resumes `waiter` with true soon, on the waker's queue.
  func resume(_ waiter: CheckedContinuation<Bool, Never>) {
    let first = pending.withLock { pending -> Bool in
      pending.append(waiter)
      return pending.count == 1
    }
    guard first else { return }
    queue.async { [self] in
      let waiters = pending.withLock { pending in
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
      }
      for waiter in waiters { waiter.resume(returning: true) }
    }
  }
}
