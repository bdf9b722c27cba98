import Foundation
import ServerTestSupport
import SyncServer
import SyncServerMemory
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
  private let anotherStarted = TestGate()

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
      await anotherStarted.wait()
    } else if heldUntilAnotherStarts != nil {
      anotherStarted.open()
    }
    defer { lock.withLock { running[credential.household, default: 1] -= 1 } }
    try await Task.sleep(for: .milliseconds(200))
    return try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
  }
}
