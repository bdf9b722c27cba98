import Foundation
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// The storage rules, written once and run on both backends (memory always, PostgreSQL
/// where it is installed).
@Suite struct StorageRulesTests {
  static func checkPushRules(_ storage: any HouseholdStorage) async throws {
    let devices = try await household(storage, devices: ["phone", "laptop"])
    let phone = try #require(devices["phone"]), laptop = try #require(devices["laptop"])
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(
      try await storage.append(batch("a:1", replica: "a"), from: phone, deviceSequence: 1, now: now)
        == PushReceipt(sequence: 1, deviceSequence: 1, stored: true))
    #expect(
      try await storage.append(batch("b:1", replica: "b"), from: laptop, deviceSequence: 1, now: now)
        == PushReceipt(sequence: 2, deviceSequence: 1, stored: true))
    // A retry: the same receipt, nothing appended.
    #expect(
      try await storage.append(batch("a:1", replica: "a"), from: phone, deviceSequence: 1, now: now)
        == PushReceipt(sequence: 1, deviceSequence: 1, stored: false))
    // A gap, a reused number, a batch id not of its replica, another replica: refused, nothing written.
    await #expect(throws: ServerError.deviceSequenceGap(device: "phone", got: 3, expected: 2)) {
      try await storage.append(batch("a:3", replica: "a"), from: phone, deviceSequence: 3, now: now)
    }
    await #expect(throws: ServerError.deviceSequenceReused(device: "phone", got: 1, expected: 2)) {
      try await storage.append(batch("a:2", replica: "a"), from: phone, deviceSequence: 1, now: now)
    }
    await #expect(throws: ServerError.batchIDInvalid("a:1", replica: "b")) {
      try await storage.append(batch("a:1", replica: "b"), from: laptop, deviceSequence: 2, now: now)
    }
    await #expect(throws: ServerError.wrongReplica(device: "phone", bound: "a", claimed: "z")) {
      try await storage.append(batch("z:1", replica: "z"), from: phone, deviceSequence: 2, now: now)
    }
    #expect(try await storage.latestSequence(of: phone.householdID) == 2)
    #expect(try await storage.deviceState(of: phone.deviceID) == DeviceState(replicaID: "a", lastDeviceSequence: 1))
    let log = try await storage.batches(of: phone.householdID, after: 0, limit: 10)
    #expect(log.map(\.sequence) == [1, 2])
    #expect(log.map(\.batch) == [batch("a:1", replica: "a").bytes, batch("b:1", replica: "b").bytes])
    #expect(try await storage.batches(of: phone.householdID, after: 1, limit: 10).map(\.sequence) == [2])
    // Registration binds nothing new for a bound device and refuses another replica.
    await #expect(throws: ServerError.wrongReplica(device: "laptop", bound: "b", claimed: "c")) {
      try await storage.register(DeviceRegistration(replicaID: "c", name: "Laptop", schemaVersion: 3), for: laptop, now: now)
    }
    _ = try await storage.register(DeviceRegistration(replicaID: "b", name: "Laptop", schemaVersion: 3), for: laptop, now: now)
    let registry = try await storage.devices(of: laptop.householdID)
    #expect(registry.map(\.device) == ["laptop", "phone"])
    #expect(registry.map(\.name) == ["Laptop", "phone"])
    #expect(registry.first?.lastSeen == now)
  }

  static func checkHouseholdsAreApart(_ storage: any HouseholdStorage) async throws {
    let smith = try #require(try await household(storage, "Smith", devices: ["phone"])["phone"])
    let jones = try #require(try await household(storage, "Jones", devices: ["phone"])["phone"])
    let now = Date()
    _ = try await storage.append(batch("s:1", replica: "s"), from: smith, deviceSequence: 1, now: now)
    // The same batch id and replica in another household is another batch of another device.
    _ = try await storage.append(batch("s:1", replica: "s"), from: jones, deviceSequence: 1, now: now)
    _ = try await storage.append(batch("s:2", replica: "s"), from: jones, deviceSequence: 2, now: now)
    #expect(try await storage.batches(of: smith.householdID, after: 0, limit: 10).map(\.batch) == [batch("s:1", replica: "s").bytes])
    #expect(try await storage.latestSequence(of: smith.householdID) == 1)
    #expect(try await storage.latestSequence(of: jones.householdID) == 2)
    #expect(try await storage.devices(of: smith.householdID).map(\.replicaID) == ["s"])
    // A household's minimum schema is its own, and reaches its tokens' credentials.
    #expect(smith.minimumSchema == 1)
    try await Administration(storage: storage).setMinimumSchema(household: "Smith", version: 3)
    let tablet = try #require(try await household(storage, "Smith", devices: ["tablet"])["tablet"])
    #expect(tablet.minimumSchema == 3)
    #expect(try #require(try await household(storage, "Jones", devices: ["tv"])["tv"]).minimumSchema == 1)
  }

  static func checkTokens(_ storage: any HouseholdStorage) async throws {
    let admin = Administration(storage: storage)
    _ = try await admin.addHousehold("Smith")
    let issued = try await admin.issueToken(household: "Smith", device: "phone", lifetime: 60)
    let credential = try #require(try await storage.credential(forTokenHash: issued.token.hash))
    #expect(credential.device == "phone" && credential.household == "Smith" && credential.revokedAt == nil)
    #expect(try await storage.credential(forTokenHash: DeviceToken.hash(issued.token.secret + "x")) == nil)
    #expect(try await admin.revokeToken(id: issued.token.id))
    #expect(try await storage.credential(forTokenHash: issued.token.hash)?.revokedAt != nil)
  }

  @Test func pushRulesInMemory() async throws { try await Self.checkPushRules(MemoryHouseholdStorage()) }
  @Test func householdsAreApartInMemory() async throws { try await Self.checkHouseholdsAreApart(MemoryHouseholdStorage()) }
  @Test func tokensInMemory() async throws { try await Self.checkTokens(MemoryHouseholdStorage()) }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func pushRulesOnPostgres() async throws { try await withPostgres { _, storage, _ in try await Self.checkPushRules(storage) } }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func householdsAreApartOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkHouseholdsAreApart(storage) }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func tokensOnPostgresAreStoredAsHashesOnly() async throws {
    try await withPostgres { client, storage, _ in
      try await Self.checkTokens(storage)
      let admin = Administration(storage: storage)
      let issued = try await admin.issueToken(household: "Smith", device: "laptop")
      var rows: [String] = []
      for try await row in try await client.query("SELECT t::text FROM tokens t").decode(String.self) { rows.append(row) }
      #expect(rows.count == 2)
      #expect(!rows.contains { $0.contains(issued.token.secret) || $0.contains(issued.token.secret.dropFirst(5).prefix(16)) })
      #expect(rows.contains { $0.contains(issued.token.id) })
    }
  }
}
