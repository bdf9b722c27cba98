public import Foundation
public import SyncServer
public import SyncServerMemory
public import SyncWire

/// A test storage built around a ``MemoryHouseholdStorage``: every call it does not answer
/// itself goes to `inner`, so a storage that fails, waits or counts on purpose writes only
/// the calls it changes.
///
/// ```swift
/// final class SlowStorage: ForwardingStorage, @unchecked Sendable {
///   let inner = MemoryHouseholdStorage()
///   func latestSequence(of household: Int64) async throws -> Int64 { … }
/// }
/// ```
public protocol ForwardingStorage: HouseholdStorage {
  var inner: MemoryHouseholdStorage { get }
}

extension ForwardingStorage {
  public func credential(forTokenHash hash: Data) async throws -> Credential? { await inner.credential(forTokenHash: hash) }
  public func onCredentialChange(_ handler: @escaping @Sendable () -> Void) { inner.onCredentialChange(handler) }
  public func householdUsage(of household: Int64, now: Date) async throws -> HouseholdUsage {
    await inner.householdUsage(of: household, now: now)
  }
  public func setHouseholdQuota(_ setting: HouseholdQuotaSetting, of household: Int64) async throws {
    await inner.setHouseholdQuota(setting, of: household)
  }
  public func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
  }
  public func batches(of household: Int64, after sequence: Int64, limit: Int) async throws -> [PulledBatch] {
    await inner.batches(of: household, after: sequence, limit: limit)
  }
  public func latestSequence(of household: Int64) async throws -> Int64 { await inner.latestSequence(of: household) }
  /// The pull is recorded in `inner`; the page is read through this storage's own calls,
  /// which a test storage may change.
  public func page(of household: Int64, device: Int64, after sequence: Int64, limit: Int, maxBytes: Int) async throws -> LogPage {
    let recorded = await inner.page(of: household, device: device, after: sequence, limit: 1, maxBytes: 0)
    let page = try await page(of: household, after: sequence, limit: limit, maxBytes: maxBytes)
    return LogPage(entries: page.entries, latestSequence: page.latestSequence, compactedThrough: recorded.compactedThrough)
  }
  public func compactLog(of household: Int64, retainedFrom: Date, assumingSnapshotAt: Int64?, dryRun: Bool, now: Date) async throws
    -> HouseholdCompaction
  {
    await inner.compactLog(of: household, retainedFrom: retainedFrom, assumingSnapshotAt: assumingSnapshotAt, dryRun: dryRun, now: now)
  }
  public func deviceState(of device: Int64) async throws -> DeviceState { await inner.deviceState(of: device) }
  public func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry {
    try await inner.register(registration, for: credential, now: now)
  }
  public func devices(of household: Int64) async throws -> [DeviceEntry] { await inner.devices(of: household) }
  public func addHousehold(name: String, identifier: String, now: Date) async throws -> HouseholdRecord? {
    await inner.addHousehold(name: name, identifier: identifier, now: now)
  }
  public func household(named name: String) async throws -> HouseholdRecord? { await inner.household(named: name) }
  public func householdSummaries(now: Date) async throws -> [HouseholdSummary] { await inner.householdSummaries(now: now) }
  public func renameHousehold(_ household: Int64, to name: String) async throws -> Bool {
    await inner.renameHousehold(household, to: name)
  }
  public func deleteHousehold(_ household: Int64) async throws -> DeletedHousehold { await inner.deleteHousehold(household) }
  public func device(named name: String, in household: Int64, now: Date) async throws -> Int64 {
    await inner.device(named: name, in: household, now: now)
  }
  public func addToken(_ token: TokenRecord) async throws { await inner.addToken(token) }
  public func revokeToken(id: String, now: Date) async throws -> Bool { await inner.revokeToken(id: id, now: now) }
  public func revokeTokens(ofDevice name: String, in household: Int64, now: Date) async throws -> Int {
    await inner.revokeTokens(ofDevice: name, in: household, now: now)
  }
  public func setMinimumSchema(_ version: Int, of household: Int64) async throws {
    await inner.setMinimumSchema(version, of: household)
  }
  public func heldBatches(of household: Int64, knownSchemaVersion: Int) async throws -> [HeldBatchEntry] {
    await inner.heldBatches(of: household, knownSchemaVersion: knownSchemaVersion)
  }
  public func retireBatch(
    _ sequence: Int64, of household: HouseholdRecord, knownSchemaVersion: Int, force: Bool, now: Date
  ) async throws -> RetiredBatch {
    try await inner.retireBatch(sequence, of: household, knownSchemaVersion: knownSchemaVersion, force: force, now: now)
  }
}
