import Foundation
import ServerTestSupport
import SyncServer
import SyncServerMemory
import SyncWire

/// Storage that fails on purpose, as a database that goes away does: the server then
/// answers 503. It can fail a number of reads of the log before they run, and a number of
/// appends after the batch was stored (the answer is lost, the batch is kept).
final class FlakyStorage: ForwardingStorage, @unchecked Sendable {
  struct Outage: Error {}

  let inner: MemoryHouseholdStorage
  private let lock = NSLock()
  private var readFailures: Int
  private var lostAnswers: Int

  init(_ inner: MemoryHouseholdStorage = MemoryHouseholdStorage(), failingReads: Int = 0, losingAppendAnswers: Int = 0) {
    self.inner = inner
    readFailures = failingReads
    lostAnswers = losingAppendAnswers
  }

  /// Fails the next `reads` log reads and loses the answers of the next `appends` pushes.
  func fail(reads: Int = 0, appendAnswers: Int = 0) {
    lock.withLock {
      readFailures = reads
      lostAnswers = appendAnswers
    }
  }

  private func take(_ counter: ReferenceWritableKeyPath<FlakyStorage, Int>) -> Bool {
    lock.withLock {
      guard self[keyPath: counter] > 0 else { return false }
      self[keyPath: counter] -= 1
      return true
    }
  }

  func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    let receipt = try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
    if take(\.lostAnswers) { throw Outage() }
    return receipt
  }

  func batches(of household: Int64, after sequence: Int64, limit: Int) async throws -> [PulledBatch] {
    if take(\.readFailures) { throw Outage() }
    return await inner.batches(of: household, after: sequence, limit: limit)
  }

  func latestSequence(of household: Int64) async throws -> Int64 {
    if take(\.readFailures) { throw Outage() }
    return await inner.latestSequence(of: household)
  }
}
