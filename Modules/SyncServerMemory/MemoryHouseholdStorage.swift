public import Foundation
public import SyncServer
public import SyncWire
import Synchronization

/// Households, devices, tokens and logs in one process's memory: a real backend with the
/// same rules as PostgreSQL's (the actor is the per-household critical section), for route
/// tests and tests of clients without a database. Everything is gone when the process ends.
///
/// ```swift
/// let storage = MemoryHouseholdStorage()
/// let admin = Administration(storage: storage)
/// ```
public actor MemoryHouseholdStorage: HouseholdStorage {
  struct Device {
    let id: Int64
    let householdID: Int64
    let name: String
    var state = DeviceState(replicaID: nil, lastDeviceSequence: 0)
    /// The highest place a pull of it started after: it holds every batch up to it.
    var pulledThrough: Int64 = 0
    var registeredName: String?
    var schemaVersion = 0
    var lastSeen: Date?
  }

  struct StoredBatch {
    let sequence: Int64
    /// The pushing device; nil for a notice the server appended (a retirement).
    let deviceID: Int64?
    let deviceSequence: Int64
    let batchID: String
    let replica: String
    let schemaVersion: Int
    var bytes: Data
    let receivedAt: Date
    var retiredAt: Date?
  }

  /// A batch id as one device's: ids are unique per device, not per household.
  struct BatchKey: Hashable {
    let deviceID: Int64
    let batchID: String
  }

  private var households: [Int64: HouseholdRecord] = [:]
  var devicesByID: [Int64: Device] = [:]
  var tokens: [Data: (record: TokenRecord, revokedAt: Date?)] = [:]
  /// Each household's batches after its floor, in order.
  var logs: [Int64: [StoredBatch]] = [:]
  /// Each household's floor: batches up to it were compacted away.
  var compactedThrough: [Int64: Int64] = [:]
  /// Where each device's batch ids are in the household's log (their sequences).
  var batchIndex: [Int64: [BatchKey: Int64]] = [:]
  private var nextID: Int64 = 1
  private var minimumSchemas: [Int64: Int] = [:]
  /// Bytes of each household's log, and its bytes pushed on one UTC day.
  var storedBytes: [Int64: Int64] = [:]
  private var pushed: [Int64: (day: Int, bytes: Int64)] = [:]
  private var quotaSettings: [Int64: HouseholdQuotaSetting] = [:]
  /// Each household's newest snapshots, oldest first (``SnapshotStore``).
  var keptSnapshots: [Int64: [(header: SnapshotHeader, pages: [Data])]] = [:]
  /// Who hears of credential changes (``onCredentialChange(_:)``).
  private nonisolated let credentialObservers = Mutex<[@Sendable () -> Void]>([])

  /// Calls `handler` after each change made through this storage to what a credential says:
  /// a token revoked, a household renamed or deleted, a minimum schema set.
  public nonisolated func onCredentialChange(_ handler: @escaping @Sendable () -> Void) {
    credentialObservers.withLock { $0.append(handler) }
  }

  private func credentialsChanged() {
    for handler in credentialObservers.withLock({ $0 }) { handler() }
  }

  public init() {}

  public func credential(forTokenHash hash: Data) -> Credential? {
    guard let (record, revokedAt) = tokens[hash], let household = households[record.householdID],
      let device = devicesByID[record.deviceID]
    else { return nil }
    return Credential(
      tokenID: record.id, householdID: household.id, household: household.name, cloudIdentifier: household.identifier,
      deviceID: device.id, device: device.name, expiresAt: record.expiresAt, revokedAt: revokedAt,
      minimumSchema: minimumSchemas[household.id] ?? 1)
  }

  public func setMinimumSchema(_ version: Int, of household: Int64) {
    minimumSchemas[household] = version
    credentialsChanged()
  }

  public func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) throws -> PushReceipt {
    guard var device = devicesByID[credential.deviceID] else { throw ServerError.unknownToken }
    let floor = compactedThrough[credential.householdID, default: 0]
    // Read in place, never copied: the log is appended to below.
    let existing = batchIndex[credential.householdID]?[BatchKey(deviceID: device.id, batchID: batch.id)].map {
      PushRules.Existing(sequence: $0, deviceSequence: logs[credential.householdID]?[Int($0 - floor) - 1].deviceSequence ?? 0)
    }
    let context = PushRules.Context(
      device: device.state, existing: existing, replicaHolder: holder(of: batch.replica, besides: device),
      held: quota.holds(batch) ? held(in: credential.householdID, knownSchemaVersion: quota.knownSchemaVersion) : .none,
      usage: householdUsage(of: credential.householdID, now: now))
    switch try PushRules.decide(batch, deviceSequence: deviceSequence, credential: credential, context: context, quota: quota) {
    case .alreadyStored(let receipt):
      return receipt
    case .append(let sequenceOfDevice, _):
      let sequence = floor + Int64(logs[credential.householdID]?.count ?? 0) + 1
      logs[credential.householdID, default: []].append(
        StoredBatch(
          sequence: sequence, deviceID: device.id, deviceSequence: sequenceOfDevice, batchID: batch.id, replica: batch.replica,
          schemaVersion: batch.schemaVersion, bytes: batch.bytes, receivedAt: now))
      batchIndex[credential.householdID, default: [:]][BatchKey(deviceID: device.id, batchID: batch.id)] = sequence
      let usage = householdUsage(of: credential.householdID, now: now)
      storedBytes[credential.householdID] = usage.storedBytes + Int64(batch.bytes.count)
      pushed[credential.householdID] = (usage.day, usage.pushedBytes + Int64(batch.bytes.count))
      device.state = DeviceState(replicaID: batch.replica, lastDeviceSequence: sequenceOfDevice)
      devicesByID[device.id] = device
      return PushReceipt(sequence: sequence, deviceSequence: sequenceOfDevice, stored: true)
    }
  }

  /// What the household holds and pushed on `now`'s UTC day, and its quota setting.
  public func householdUsage(of household: Int64, now: Date) -> HouseholdUsage {
    let day = HouseholdQuota.day(of: now)
    let today = pushed[household].flatMap { $0.day == day ? $0.bytes : nil } ?? 0
    return HouseholdUsage(
      storedBytes: storedBytes[household, default: 0], pushedBytes: today, day: day,
      setting: quotaSettings[household] ?? HouseholdQuotaSetting())
  }

  public func setHouseholdQuota(_ setting: HouseholdQuotaSetting, of household: Int64) {
    quotaSettings[household] = setting
  }

  /// The name of another device of `device`'s household bound to `replica`.
  private func holder(of replica: String, besides device: Device) -> String? {
    devicesByID.values.first { $0.householdID == device.householdID && $0.id != device.id && $0.state.replicaID == replica }?.name
  }

  /// The household's held batches: schema above `knownSchemaVersion`, not retired.
  private func heldBatches(in household: Int64, knownSchemaVersion: Int) -> [StoredBatch] {
    logs[household, default: []].filter { $0.deviceID != nil && $0.schemaVersion > knownSchemaVersion && $0.retiredAt == nil }
  }

  private func held(in household: Int64, knownSchemaVersion: Int) -> HeldUsage {
    let held = heldBatches(in: household, knownSchemaVersion: knownSchemaVersion)
    return HeldUsage(count: held.count, bytes: held.reduce(0) { $0 + $1.bytes.count })
  }

  /// The kept batches after `sequence` (from the floor on, when `sequence` is below it).
  private func kept(of household: Int64, after sequence: Int64) -> ArraySlice<StoredBatch> {
    let log = logs[household, default: []]
    let start = Int(max(0, min(sequence - compactedThrough[household, default: 0], Int64(log.count))))
    return log[start...]
  }

  public func batches(of household: Int64, after sequence: Int64, limit: Int) -> [PulledBatch] {
    kept(of: household, after: sequence).prefix(limit).map { PulledBatch(sequence: $0.sequence, batch: $0.bytes) }
  }

  public func latestSequence(of household: Int64) -> Int64 {
    compactedThrough[household, default: 0] + Int64(logs[household, default: []].count)
  }

  public func page(of household: Int64, after sequence: Int64, limit: Int, maxBytes: Int) -> LogPage {
    let entries = kept(of: household, after: sequence).prefix(limit).lazy.map { PulledBatch(sequence: $0.sequence, batch: $0.bytes) }
    return LogPage(
      entries: LogPage.fitting(entries, maxBytes: maxBytes), latestSequence: latestSequence(of: household),
      compactedThrough: compactedThrough[household, default: 0])
  }

  public func page(of household: Int64, device: Int64, after sequence: Int64, limit: Int, maxBytes: Int) -> LogPage {
    if var pulling = devicesByID[device], pulling.householdID == household, sequence > pulling.pulledThrough,
      sequence <= latestSequence(of: household)
    {
      pulling.pulledThrough = sequence
      devicesByID[device] = pulling
    }
    return page(of: household, after: sequence, limit: limit, maxBytes: maxBytes)
  }

  public func deviceState(of device: Int64) -> DeviceState {
    devicesByID[device]?.state ?? DeviceState(replicaID: nil, lastDeviceSequence: 0)
  }

  public func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) throws -> DeviceEntry {
    guard var device = devicesByID[credential.deviceID] else { throw ServerError.unknownToken }
    try PushRules.checkReplica(
      bound: device.state.replicaID, claimed: registration.replicaID, holder: holder(of: registration.replicaID, besides: device),
      device: device.name)
    device.state.replicaID = registration.replicaID
    device.registeredName = registration.name
    device.schemaVersion = registration.schemaVersion
    device.lastSeen = now
    devicesByID[device.id] = device
    return entry(device)
  }

  public func devices(of household: Int64) -> [DeviceEntry] {
    devicesByID.values.filter { $0.householdID == household }.sorted { $0.name < $1.name }.map(entry)
  }

  private func entry(_ device: Device) -> DeviceEntry {
    DeviceEntry(
      device: device.name, replicaID: device.state.replicaID, name: device.registeredName ?? device.name,
      schemaVersion: device.schemaVersion, lastSeen: device.lastSeen)
  }

  // MARK: Held batches

  public func heldBatches(of household: Int64, knownSchemaVersion: Int) -> [HeldBatchEntry] {
    heldBatches(in: household, knownSchemaVersion: knownSchemaVersion).map(entry)
  }

  public func retireBatch(
    _ sequence: Int64, of household: HouseholdRecord, knownSchemaVersion: Int, force: Bool, now: Date
  ) throws -> RetiredBatch {
    let log = logs[household.id, default: []]
    let floor = compactedThrough[household.id, default: 0]
    let index = sequence > floor ? Int(sequence - floor) - 1 : -1
    let stored =
      log.indices.contains(index) && log[index].deviceID != nil
      ? RetireRules.Stored(batch: entry(log[index]), retiredAt: log[index].retiredAt) : nil
    let retirement = try RetireRules.decide(
      sequence: sequence, household: household.name, stored: stored, devices: devices(of: household.id),
      knownSchemaVersion: knownSchemaVersion, force: force)
    logs[household.id, default: []][index].bytes = retirement.replacement
    logs[household.id, default: []][index].retiredAt = now
    let notice = floor + Int64(log.count) + 1
    logs[household.id, default: []].append(
      StoredBatch(
        sequence: notice, deviceID: nil, deviceSequence: 0, batchID: RetireRules.noticeID(of: sequence), replica: "",
        schemaVersion: knownSchemaVersion, bytes: retirement.notice, receivedAt: now))
    storedBytes[household.id, default: 0] +=
      Int64(retirement.replacement.count) - Int64(log[index].bytes.count) + Int64(retirement.notice.count)
    return RetiredBatch(batch: retirement.batch, noticeSequence: notice)
  }

  private func entry(_ batch: StoredBatch) -> HeldBatchEntry {
    HeldBatchEntry(
      sequence: batch.sequence, device: batch.deviceID.flatMap { devicesByID[$0]?.name } ?? "-", batchID: batch.batchID,
      replica: batch.replica, schemaVersion: batch.schemaVersion, bytes: batch.bytes.count, pushedAt: batch.receivedAt)
  }

  // MARK: Administration

  public func addHousehold(name: String, identifier: String, now: Date) -> HouseholdRecord? {
    guard household(named: name) == nil else { return nil }
    let record = HouseholdRecord(id: takeID(), name: name, identifier: identifier)
    households[record.id] = record
    return record
  }

  public func household(named name: String) -> HouseholdRecord? { households.values.first { $0.name == name } }

  public func householdSummaries(now: Date) -> [HouseholdSummary] {
    households.values.sorted { $0.name < $1.name }.map { household in
      let log = logs[household.id, default: []]
      return HouseholdSummary(
        name: household.name, identifier: household.identifier,
        devices: devicesByID.values.count { $0.householdID == household.id },
        liveTokens: tokens.values.count { $0.record.householdID == household.id && $0.revokedAt == nil && $0.record.expiresAt > now },
        batches: log.count, bytes: Int64(log.reduce(0) { $0 + $1.bytes.count }), lastPush: log.last?.receivedAt)
    }
  }

  public func renameHousehold(_ household: Int64, to name: String) -> Bool {
    guard let record = households[household], self.household(named: name) == nil else { return false }
    households[household] = HouseholdRecord(id: record.id, name: name, identifier: record.identifier)
    credentialsChanged()
    return true
  }

  public func deleteHousehold(_ household: Int64) -> DeletedHousehold {
    let devices = devicesByID.values.filter { $0.householdID == household }.map(\.id)
    let tokenHashes = tokens.filter { $0.value.record.householdID == household }.map(\.key)
    let deleted = DeletedHousehold(devices: devices.count, tokens: tokenHashes.count, batches: logs[household]?.count ?? 0)
    for id in devices { devicesByID[id] = nil }
    for hash in tokenHashes { tokens[hash] = nil }
    households[household] = nil
    logs[household] = nil
    compactedThrough[household] = nil
    batchIndex[household] = nil
    minimumSchemas[household] = nil
    storedBytes[household] = nil
    pushed[household] = nil
    quotaSettings[household] = nil
    keptSnapshots[household] = nil
    credentialsChanged()
    return deleted
  }

  public func device(named name: String, in household: Int64, now: Date) -> Int64 {
    if let device = devicesByID.values.first(where: { $0.householdID == household && $0.name == name }) { return device.id }
    let device = Device(id: takeID(), householdID: household, name: name)
    devicesByID[device.id] = device
    return device.id
  }

  public func addToken(_ token: TokenRecord) { tokens[token.hash] = (token, nil) }

  public func revokeToken(id: String, now: Date) -> Bool {
    guard let (hash, entry) = tokens.first(where: { $0.value.record.id == id }), entry.revokedAt == nil else { return false }
    tokens[hash] = (entry.record, now)
    credentialsChanged()
    return true
  }

  public func revokeTokens(ofDevice name: String, in household: Int64, now: Date) -> Int {
    guard let device = devicesByID.values.first(where: { $0.householdID == household && $0.name == name }) else { return 0 }
    var count = 0
    for (hash, entry) in tokens where entry.record.deviceID == device.id && entry.revokedAt == nil {
      tokens[hash] = (entry.record, now)
      count += 1
    }
    if count > 0 { credentialsChanged() }
    return count
  }

  private func takeID() -> Int64 {
    defer { nextID += 1 }
    return nextID
  }
}
