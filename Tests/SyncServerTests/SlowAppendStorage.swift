import Foundation
import ServerTestSupport
import SyncServer
import SyncWire

/// Storage whose appends take 200 ms, as a push waiting for its household's lock in the
/// database does, and which records how many appends of each household ran at once.
final class SlowAppendStorage: ForwardingStorage, @unchecked Sendable {
  let inner = MemoryHouseholdStorage()
  private let lock = NSLock()
  private var running: [String: Int] = [:]
  private var most: [String: Int] = [:]
  /// When set, this household's appends wait (after counting as running) until an append
  /// of another household starts: a test that needs no clock to show the other was not
  /// queued behind them.
  var heldUntilAnotherStarts: String?
  private var released = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// The most appends of `household` that ran at once.
  func mostAtOnce(household: String) -> Int { lock.withLock { most[household] ?? 0 } }

  func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    lock.withLock {
      running[credential.household, default: 0] += 1
      most[credential.household] = max(most[credential.household] ?? 0, running[credential.household] ?? 0)
    }
    if credential.household == heldUntilAnotherStarts {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let go = lock.withLock { () -> Bool in
          if released { return true }
          waiting.append(continuation)
          return false
        }
        if go { continuation.resume() }
      }
    } else if heldUntilAnotherStarts != nil {
      let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
        released = true
        defer { waiting = [] }
        return waiting
      }
      for continuation in resumed { continuation.resume() }
    }
    defer { lock.withLock { running[credential.household, default: 1] -= 1 } }
    try await Task.sleep(for: .milliseconds(200))
    return try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
  }
}
