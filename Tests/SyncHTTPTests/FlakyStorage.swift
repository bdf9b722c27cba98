import Foundation
import SyncServer
import SyncWire

/// Storage that fails on purpose, as a database that goes away does: the server then
/// answers 503. It can fail a number of reads of the log before they run, and a number of
/// appends after the batch was stored (the answer is lost, the batch is kept).
final class FlakyStorage: HouseholdStorage, @unchecked Sendable {
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

  func credential(forTokenHash hash: Data) async throws -> Credential? { await inner.credential(forTokenHash: hash) }
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
