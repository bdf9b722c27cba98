import Foundation
import PostgresNIO
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import SyncWire
import TestSupport
import Testing

/// A hostile device of the household, over real HTTP on loopback: it tries to register and
/// push as the phone, and to take the phone's next batch ids; the server refuses each, and
/// the honest devices still sync and converge.
@Suite(.timeLimit(.minutes(10)))
struct HostileDeviceSyncTests {
  static let hostileReplica = "tablet-replica"

  /// The batch ids `replica` pushed, in log order.
  static func batchIDs(_ storage: any HouseholdStorage, of replica: String) async throws -> [String] {
    guard let household = try await storage.household(named: "Smith") else { return [] }
    return try await storage.batches(of: household.id, after: 0, limit: 1_000)
      .compactMap { try? ChangeBatchCoding.header($0.batch) }.filter { $0.replica == replica }.map(\.id)
  }

  /// The refusal `body` throws, as (status, code, message).
  static func refusal(_ body: () throws -> Void) -> (Int, String, String)? {
    do {
      try body()
      return nil
    } catch HTTPCloudError.refused(let status, let code, let message) {
      return (status, code, message)
    } catch {
      return (0, "\(error)", "")
    }
  }

  /// - Parameter plantSquats: writes batches with these ids, pushed by the tablet, into the
  ///   log as a server that did not check batch ids would have (nil: the storage cannot).
  static func checkHonestDevicesSurviveATakeoverAndSquatting(
    _ storage: any HouseholdStorage, plantSquats: (@Sendable ([String]) async throws -> Void)? = nil
  ) async throws {
    let secrets = try await tokens(storage, devices: ["phone", "laptop", "tablet"])
    try await withServer(storage) { url, _ in
      let clock = TickingClock()
      let (phone, laptop, phoneReplica) = try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(10)), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
        _ = try phone.library.categories.getOrCreate("Produce")
        _ = try laptop.library.categories.getOrCreate("Dairy")
        for device in [phone, laptop, phone] { try device.engine.sync() }
        return (phone, laptop, try phone.engine.replicaID())
      }
      // The phone's batch ids are '<replica>:<first>-<last>': its next ones are easy to guess.
      let first = try #require(try await batchIDs(storage, of: phoneReplica).first)
      let pushed = try #require(first.split(separator: "-").last.flatMap { Int($0) })
      let guesses = (1...4).map { "\(phoneReplica):\(pushed + 1)-\(pushed + $0)" }
      try await onThread {
        let hostile = try HTTPCloud(url: url, token: secrets[2], timeout: .seconds(10))
        let asPhone = CloudDevice(replicaID: phoneReplica, name: "phone", schemaVersion: 3, lastSeen: Date())
        let registered = refusal { try hostile.register(asPhone) }
        #expect(registered?.0 == 409 && registered?.1 == "replica-taken")
        #expect(registered?.2.contains("replica '\(phoneReplica)' belongs to device 'phone'") == true)
        let pushedAsPhone = refusal {
          _ = try hostile.push(ChangeBatch(id: guesses[0], replica: phoneReplica, schemaVersion: 3, changes: []))
        }
        #expect(pushedAsPhone?.0 == 409 && pushedAsPhone?.1 == "replica-taken")
        try hostile.register(CloudDevice(replicaID: hostileReplica, name: "tablet", schemaVersion: 3, lastSeen: Date()))
        for id in guesses {
          let squatted = refusal { _ = try hostile.push(ChangeBatch(id: id, replica: hostileReplica, schemaVersion: 3, changes: [])) }
          #expect(squatted?.0 == 422 && squatted?.1 == "batch-id-invalid")
        }
      }
      #expect(try await batchIDs(storage, of: hostileReplica).isEmpty)
      // A log written before ids were checked may hold them all the same.
      try await plantSquats?(guesses)
      try await onThread {
        _ = try phone.library.categories.getOrCreate("Spices")
        _ = try laptop.library.categories.getOrCreate("Bakery")
        for device in [phone, laptop, phone] { try device.engine.sync() }
        let seen = try phone.view()
        #expect(seen == ["category Bakery", "category Dairy", "category Produce", "category Spices"])
        #expect(try laptop.view() == seen)
        #expect(try phone.engine.pendingChangeCount() == 0 && laptop.engine.pendingChangeCount() == 0)
      }
      // The phone's next batch has an id the tablet tried to take first.
      let phoneIDs = try await batchIDs(storage, of: phoneReplica)
      #expect(phoneIDs.contains { guesses.contains($0) }, "\(phoneIDs) \(guesses)")
    }
  }

  @Test func honestDevicesSurviveATakeoverAndSquattingInMemory() async throws {
    try await Self.checkHonestDevicesSurviveATakeoverAndSquatting(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func honestDevicesSurviveATakeoverAndSquattingOnPostgres() async throws {
    try await withPostgres { client, storage, _ in
      try await Self.checkHonestDevicesSurviveATakeoverAndSquatting(storage) { guesses in
        for (index, id) in guesses.enumerated() {
          let bytes = ChangeBatchCoding.encode(ChangeBatch(id: id, replica: Self.hostileReplica, schemaVersion: 3, changes: []))
          try await client.query(
            """
            WITH next AS (UPDATE households SET last_sequence = last_sequence + 1 WHERE name = 'Smith' RETURNING id, last_sequence)
            INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
            SELECT next.id, next.last_sequence, \(id), d.id, \(Int64(index + 1)), \(Self.hostileReplica), 3, \(bytes), now()
            FROM next JOIN devices d ON d.household_id = next.id AND d.name = 'tablet'
            """)
        }
      }
    }
  }
}
