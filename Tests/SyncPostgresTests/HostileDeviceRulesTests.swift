import Foundation
import PostgresNIO
import ServerTestSupport
import Sync
import SyncPostgres
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// The rules that keep one device from taking over, wedging or flooding its household,
/// written once and run on both backends: replica takeover, batch-id squatting, newer-schema
/// flooding past the quota, and listing and retiring held batches. Every refusal is checked
/// to have written nothing.
@Suite struct HostileDeviceRulesTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// The household's log as (sequence, bytes) and its devices' states: what a refusal must leave as it was.
  static func snapshot(_ storage: any HouseholdStorage, _ credentials: [Credential]) async throws -> [String] {
    guard let household = credentials.first?.householdID else { return [] }
    var lines = try await storage.batches(of: household, after: 0, limit: 1_000).map {
      "batch \($0.sequence) \($0.batch.base64EncodedString())"
    }
    for credential in credentials {
      let state = try await storage.deviceState(of: credential.deviceID)
      lines.append("device \(credential.device) \(state.replicaID ?? "-") \(state.lastDeviceSequence)")
    }
    lines.append("latest \(try await storage.latestSequence(of: household))")
    return lines
  }

  static func checkAFreshTokenCannotTakeAnotherDevicesReplica(_ storage: any HouseholdStorage) async throws {
    let devices = try await household(storage, devices: ["phone", "laptop", "tablet"])
    let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"]), tablet = try #require(devices["tablet"])
    _ = try await storage.append(batch("a:1-1", replica: "a"), from: phone, deviceSequence: 1, now: now)
    // The laptop is bound by registering only.
    _ = try await storage.register(DeviceRegistration(replicaID: "b", name: "Laptop", schemaVersion: 3), for: laptop, now: now)
    let before = try await snapshot(storage, [phone, laptop, tablet])
    await #expect(throws: ServerError.replicaTaken("a", holder: "phone", device: "tablet")) {
      try await storage.register(DeviceRegistration(replicaID: "a", name: "phone", schemaVersion: 3), for: tablet, now: now)
    }
    await #expect(throws: ServerError.replicaTaken("a", holder: "phone", device: "tablet")) {
      try await storage.append(batch("a:2-2", replica: "a"), from: tablet, deviceSequence: 1, now: now)
    }
    await #expect(throws: ServerError.replicaTaken("b", holder: "laptop", device: "tablet")) {
      try await storage.append(batch("b:1-1", replica: "b"), from: tablet, deviceSequence: 1, now: now)
    }
    #expect(try await snapshot(storage, [phone, laptop, tablet]) == before)
    #expect(try await storage.devices(of: tablet.householdID).first { $0.device == "tablet" }?.replicaID == nil)
    // The real devices go on; the tablet may push as a replica of its own.
    #expect(try await storage.append(batch("a:2-2", replica: "a"), from: phone, deviceSequence: 2, now: now).stored)
    #expect(try await storage.append(batch("b:1-1", replica: "b"), from: laptop, deviceSequence: 1, now: now).stored)
    #expect(try await storage.append(batch("t:1-1", replica: "t"), from: tablet, deviceSequence: 1, now: now).sequence == 4)
  }

  static func checkADeviceCannotTakeAnotherDevicesBatchID(_ storage: any HouseholdStorage) async throws {
    let devices = try await household(storage, devices: ["phone", "laptop"])
    let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"])
    _ = try await storage.append(batch("a:1-1", replica: "a"), from: phone, deviceSequence: 1, now: now)
    _ = try await storage.append(batch("b:1-1", replica: "b"), from: laptop, deviceSequence: 1, now: now)
    let before = try await snapshot(storage, [phone, laptop])
    // The laptop pushes the phone's predictable next id first: as itself, or as the phone.
    await #expect(throws: ServerError.batchIDInvalid("a:2-2", replica: "b")) {
      try await storage.append(batch("a:2-2", replica: "b"), from: laptop, deviceSequence: 2, now: now)
    }
    await #expect(throws: ServerError.wrongReplica(device: "laptop", bound: "b", claimed: "a")) {
      try await storage.append(batch("a:2-2", replica: "a"), from: laptop, deviceSequence: 2, now: now)
    }
    await #expect(throws: ServerError.batchIDInvalid("ab:1", replica: "a")) {
      try await storage.append(batch("ab:1", replica: "a"), from: phone, deviceSequence: 2, now: now)
    }
    #expect(try await snapshot(storage, [phone, laptop]) == before)
    #expect(
      try await storage.append(batch("a:2-2", replica: "a"), from: phone, deviceSequence: 2, now: now)
        == PushReceipt(sequence: 3, deviceSequence: 2, stored: true))
  }

  static func checkNewerSchemaBatchesStopAtTheQuota(_ storage: any HouseholdStorage) async throws {
    let devices = try await household(storage, devices: ["phone", "laptop"])
    let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"])
    // Each held batch is 40 bytes: two fit the count, three would pass 100 bytes.
    let byCount = HeldBatchQuota(knownSchemaVersion: 3, maxBytes: 1_000, maxCount: 2)
    let byBytes = HeldBatchQuota(knownSchemaVersion: 3, maxBytes: 100, maxCount: 10)
    let held = { (number: Int) in batch("a:\(number)", replica: "a", schemaVersion: 4, bytes: 40 - "a:\(number)|a".utf8.count) }
    #expect(held(1).bytes.count == 40)
    _ = try await storage.append(held(1), from: phone, deviceSequence: 1, quota: byCount, now: now)
    _ = try await storage.append(held(2), from: phone, deviceSequence: 2, quota: byCount, now: now)
    let before = try await snapshot(storage, [phone, laptop])
    await #expect(throws: ServerError.heldQuotaCount(held: HeldUsage(count: 2, bytes: 80), limit: 2, known: 3)) {
      try await storage.append(held(3), from: phone, deviceSequence: 3, quota: byCount, now: now)
    }
    await #expect(throws: ServerError.heldQuotaBytes(held: HeldUsage(count: 2, bytes: 80), adding: 40, limit: 100, known: 3)) {
      try await storage.append(held(3), from: phone, deviceSequence: 3, quota: byBytes, now: now)
    }
    #expect(try await snapshot(storage, [phone, laptop]) == before)
    // A retry of a held batch is still answered, and honest batches still go through.
    #expect(try await storage.append(held(2), from: phone, deviceSequence: 2, quota: byCount, now: now).stored == false)
    #expect(try await storage.append(batch("b:1", replica: "b"), from: laptop, deviceSequence: 1, quota: byCount, now: now).stored)
    #expect(try await storage.append(batch("a:3", replica: "a"), from: phone, deviceSequence: 3, quota: byCount, now: now).stored)
    #expect(try await storage.heldBatches(of: phone.householdID, knownSchemaVersion: 3).map(\.sequence) == [1, 2])
    // A retired batch no longer counts.
    let smith = try #require(try await storage.household(named: "Smith"))
    _ = try await storage.retireBatch(1, of: smith, knownSchemaVersion: 3, force: false, now: now)
    #expect(try await storage.append(held(4), from: phone, deviceSequence: 4, quota: byCount, now: now).sequence == 6)
    #expect(try await storage.heldBatches(of: phone.householdID, knownSchemaVersion: 3).map(\.sequence) == [2, 6])
    // A server that reads schema 4 holds none of them.
    #expect(try await storage.heldBatches(of: phone.householdID, knownSchemaVersion: 4).isEmpty)
  }

  static func checkRetiringAHeldBatch(_ storage: any HouseholdStorage) async throws {
    let devices = try await household(storage, devices: ["phone", "laptop", "tablet"])
    let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"]), tablet = try #require(devices["tablet"])
    let smith = try #require(try await storage.household(named: "Smith"))
    _ = try await storage.register(DeviceRegistration(replicaID: "a", name: "phone", schemaVersion: 4), for: phone, now: now)
    _ = try await storage.register(DeviceRegistration(replicaID: "b", name: "laptop", schemaVersion: 3), for: laptop, now: now)
    let newer = batch("a:1", replica: "a", schemaVersion: 4, bytes: 100)
    _ = try await storage.append(newer, from: phone, deviceSequence: 1, now: now)
    _ = try await storage.append(batch("b:1", replica: "b"), from: laptop, deviceSequence: 1, now: now)
    let listed = try await storage.heldBatches(of: smith.id, knownSchemaVersion: 3)
    #expect(
      listed == [
        HeldBatchEntry(
          sequence: 1, device: "phone", batchID: "a:1", replica: "a", schemaVersion: 4, bytes: newer.bytes.count, pushedAt: now)
      ])
    // The tablet registers a newer schema: it may have applied the batch.
    _ = try await storage.register(DeviceRegistration(replicaID: "t", name: "tablet", schemaVersion: 5), for: tablet, now: now)
    let before = try await snapshot(storage, [phone, laptop, tablet])
    await #expect(throws: ServerError.retireNeedsForce(1, schemaVersion: 4, devices: ["tablet"])) {
      try await storage.retireBatch(1, of: smith, knownSchemaVersion: 3, force: false, now: now)
    }
    await #expect(throws: ServerError.batchNotHeld(2, household: "Smith", reason: "it is schema v3, which this server reads (up to v3)")) {
      try await storage.retireBatch(2, of: smith, knownSchemaVersion: 3, force: true, now: now)
    }
    await #expect(
      throws: ServerError.batchNotHeld(9, household: "Smith", reason: "there is no batch a device pushed with that sequence")
    ) {
      try await storage.retireBatch(9, of: smith, knownSchemaVersion: 3, force: true, now: now)
    }
    #expect(try await snapshot(storage, [phone, laptop, tablet]) == before)
    let retired = try await storage.retireBatch(1, of: smith, knownSchemaVersion: 3, force: true, now: now)
    #expect(retired == RetiredBatch(batch: listed[0], noticeSequence: 3))
    // The batch is now empty and of the known schema; the notice names it; earlier sequences are unchanged.
    let log = try await storage.batches(of: smith.id, after: 0, limit: 10)
    #expect(log.map(\.sequence) == [1, 2, 3])
    #expect(try ChangeBatchCoding.decode(log[0].batch) == ChangeBatch(id: "a:1", replica: "a", schemaVersion: 3, changes: []))
    #expect(log[1].batch == batch("b:1", replica: "b").bytes)
    #expect(try ChangeBatchCoding.decode(log[2].batch) == ChangeBatch(id: "retired:1", replica: "", schemaVersion: 3, changes: []))
    #expect(try await storage.heldBatches(of: smith.id, knownSchemaVersion: 3).isEmpty)
    // Neither the retired batch nor the notice can be retired again.
    await #expect(throws: ServerError.self) { try await storage.retireBatch(1, of: smith, knownSchemaVersion: 3, force: true, now: now) }
    await #expect(
      throws: ServerError.batchNotHeld(3, household: "Smith", reason: "there is no batch a device pushed with that sequence")
    ) {
      try await storage.retireBatch(3, of: smith, knownSchemaVersion: 3, force: true, now: now)
    }
    #expect(try await storage.latestSequence(of: smith.id) == 3)
    // The devices push on after the notice.
    #expect(try await storage.append(batch("a:2", replica: "a"), from: phone, deviceSequence: 2, now: now).sequence == 4)
  }

  @Test func aFreshTokenCannotTakeAnotherDevicesReplicaInMemory() async throws {
    try await Self.checkAFreshTokenCannotTakeAnotherDevicesReplica(MemoryHouseholdStorage())
  }
  @Test func aDeviceCannotTakeAnotherDevicesBatchIDInMemory() async throws {
    try await Self.checkADeviceCannotTakeAnotherDevicesBatchID(MemoryHouseholdStorage())
  }
  @Test func newerSchemaBatchesStopAtTheQuotaInMemory() async throws {
    try await Self.checkNewerSchemaBatchesStopAtTheQuota(MemoryHouseholdStorage())
  }
  @Test func retiringAHeldBatchInMemory() async throws { try await Self.checkRetiringAHeldBatch(MemoryHouseholdStorage()) }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aFreshTokenCannotTakeAnotherDevicesReplicaOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkAFreshTokenCannotTakeAnotherDevicesReplica(storage) }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aDeviceCannotTakeAnotherDevicesBatchIDOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkADeviceCannotTakeAnotherDevicesBatchID(storage) }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func newerSchemaBatchesStopAtTheQuotaOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkNewerSchemaBatchesStopAtTheQuota(storage) }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func retiringAHeldBatchOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkRetiringAHeldBatch(storage) }
  }

  /// A log written before batch ids were checked holds the phone's next id, pushed by the
  /// laptop: the phone's push of it is still a new batch, and its retry a retry.
  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aBatchIDSquattedInAnOlderLogDoesNotBlockItsDevice() async throws {
    try await withPostgres { client, storage, _ in
      let devices = try await household(storage, devices: ["phone", "laptop"])
      let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"])
      _ = try await storage.append(batch("a:1-1", replica: "a"), from: phone, deviceSequence: 1, now: Self.now)
      _ = try await storage.append(batch("b:1-1", replica: "b"), from: laptop, deviceSequence: 1, now: Self.now)
      try await client.query(
        """
        WITH next AS (UPDATE households SET last_sequence = last_sequence + 1 WHERE id = \(phone.householdID) RETURNING last_sequence),
        device AS (UPDATE devices SET last_device_sequence = 2 WHERE id = \(laptop.deviceID))
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
        SELECT \(phone.householdID), next.last_sequence, 'a:2-2', \(laptop.deviceID), 2, 'b', 3, '\\x00'::bytea, now() FROM next
        """)
      #expect(
        try await storage.append(batch("a:2-2", replica: "a"), from: phone, deviceSequence: 2, now: Self.now)
          == PushReceipt(sequence: 4, deviceSequence: 2, stored: true))
      #expect(
        try await storage.append(batch("a:2-2", replica: "a"), from: phone, deviceSequence: 3, now: Self.now)
          == PushReceipt(sequence: 4, deviceSequence: 2, stored: false))
    }
  }
}
