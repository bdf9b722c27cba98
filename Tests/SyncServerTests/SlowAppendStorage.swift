import Foundation
import SyncServer
import SyncWire

/// Storage whose appends take 200 ms, as a push waiting for its household's lock in the
/// database does, and which records how many appends of each household ran at once.
final class SlowAppendStorage: HouseholdStorage, @unchecked Sendable {
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
  func credential(forTokenHash hash: Data) async throws -> Credential? { await inner.credential(forTokenHash: hash) }
  func batches(of household: Int64, after sequence: Int64, limit: Int) async throws -> [PulledBatch] {
    await inner.batches(of: household, after: sequence, limit: limit)
  }
  func latestSequence(of household: Int64) async throws -> Int64 { await inner.latestSequence(of: household) }
  func deviceState(of device: Int64) async throws -> DeviceState { await inner.deviceState(of: device) }
  func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry {
    try await inner.register(registration, for: credential, now: now)
  }
  func devices(of household: Int64) async throws -> [DeviceEntry] { await inner.devices(of: household) }
  func addHousehold(name: String, identifier: String, now: Date) async throws -> HouseholdRecord? {
    await inner.addHousehold(name: name, identifier: identifier, now: now)
  }
  func household(named name: String) async throws -> HouseholdRecord? { await inner.household(named: name) }
  func householdSummaries(now: Date) async throws -> [HouseholdSummary] { await inner.householdSummaries(now: now) }
  func renameHousehold(_ household: Int64, to name: String) async throws -> Bool { await inner.renameHousehold(household, to: name) }
  func deleteHousehold(_ household: Int64) async throws -> DeletedHousehold { await inner.deleteHousehold(household) }
  func device(named name: String, in household: Int64, now: Date) async throws -> Int64 {
    await inner.device(named: name, in: household, now: now)
  }
  func addToken(_ token: TokenRecord) async throws { await inner.addToken(token) }
  func revokeToken(id: String, now: Date) async throws -> Bool { await inner.revokeToken(id: id, now: now) }
  func revokeTokens(ofDevice name: String, in household: Int64, now: Date) async throws -> Int {
    await inner.revokeTokens(ofDevice: name, in: household, now: now)
  }
  func setMinimumSchema(_ version: Int, of household: Int64) async throws { await inner.setMinimumSchema(version, of: household) }
  func heldBatches(of household: Int64, knownSchemaVersion: Int) async throws -> [HeldBatchEntry] {
    await inner.heldBatches(of: household, knownSchemaVersion: knownSchemaVersion)
  }
  func retireBatch(_ sequence: Int64, of household: HouseholdRecord, knownSchemaVersion: Int, force: Bool, now: Date) async throws
    -> RetiredBatch
  {
    try await inner.retireBatch(sequence, of: household, knownSchemaVersion: knownSchemaVersion, force: force, now: now)
  }
}
