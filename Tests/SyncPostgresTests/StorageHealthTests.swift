import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresNIO
import Prometheus
import ServerTestSupport
import Sync
import SyncPostgres
import SyncServer
import SyncWire
import Testing

/// Storage health comes only from the storage: a hostile request whose data PostgreSQL
/// cannot hold — a schema number past its column, an id past the btree index's entry limit —
/// is that request's refusal, on the real routes over a real PostgreSQL, and never marks the
/// database down for the other households (it once answered 503 and closed the shared gate).
@Suite(.timeLimit(.minutes(2))) struct StorageHealthTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// `count` characters, each a letter with ten combining marks picked by a fixed generator:
  /// 21 bytes a character, which PostgreSQL's compression of an index key cannot shrink
  /// enough to fit.
  static func heavyText(_ count: Int, seed: UInt64 = 7) -> String {
    var state = seed
    var text = ""
    for _ in 0..<count {
      text.unicodeScalars.append("e")
      for _ in 0..<10 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text.unicodeScalars.append(Unicode.Scalar(0x300 + UInt32((state >> 33) % 0x70)) ?? "e")
      }
    }
    return text
  }

  static func batchBytes(id: String, replica: String, schemaVersion: Int = 3) -> Data {
    ChangeBatchCoding.encode(ChangeBatch(id: id, replica: replica, schemaVersion: schemaVersion, changes: []))
  }

  /// The routes over `storage`, their metrics in `registry`, and a token per household.
  static func withRoutes(
    _ storage: PostgresHouseholdStorage, households: [String],
    _ body: @escaping @Sendable (any TestClientProtocol, [String]) async throws -> Void
  ) async throws -> String {
    let registry = PrometheusCollectorRegistry()
    let configuration = ServerConfiguration(clock: { now })
    let service = SyncService(
      storage: storage, configuration: configuration, logger: Logger(label: "test"),
      metricsFactory: PrometheusMetricsFactory(registry: registry))
    let admin = Administration(storage: storage, configuration: configuration)
    var tokens: [String] = []
    for name in households {
      _ = try await admin.addHousehold(name)
      tokens.append(try await admin.issueToken(household: name, device: "phone").token.secret)
    }
    let issued = tokens
    try await Application(router: service.router()).test(.router) { client in try await body(client, issued) }
    var text: [UInt8] = []
    registry.emit(into: &text)
    return String(decoding: text, as: UTF8.self)
  }

  static func push(_ client: any TestClientProtocol, _ bytes: Data, token: String, deviceSequence: Int64) async throws -> TestResponse {
    var fields: HTTPFields = [.authorization: "Bearer \(token)", .contentType: Wire.batchMediaType]
    if let name = HTTPField.Name(Wire.deviceSequenceHeader) { fields[name] = String(deviceSequence) }
    return try await client.execute(uri: Wire.Path.batches, method: .post, headers: fields, body: ByteBuffer(bytes: bytes))
  }

  static func refusal(_ response: TestResponse) -> WireError.Detail? {
    (try? WireCoding.decoder().decode(WireError.self, from: Data(response.body.readableBytesView)))?.error
  }

  /// What every hostile request below must leave: the database marked available by no one's
  /// failure, and no request answered 503.
  static func expectStorageNeverMarkedDown(_ metrics: String) {
    #expect(!metrics.contains("forager_database_available 0"), "\(metrics)")
    #expect(!metrics.contains("forager_storage_unavailable_total"), "\(metrics)")
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aSchemaNumberPastItsColumnIsRefusedAndOtherHouseholdsGoOnAtOnce() async throws {
    try await withPostgres { _, storage, _ in
      let metrics = try await Self.withRoutes(storage, households: ["Hostile", "Smith"]) { client, tokens in
        // 3,000,000,000 is a newer schema to this server (stored unread), and past PostgreSQL's integer.
        let hostile = try await Self.push(
          client, Self.batchBytes(id: "h:1", replica: "h", schemaVersion: 3_000_000_000), token: tokens[0], deviceSequence: 1)
        #expect(hostile.status == .unprocessableContent)
        #expect(Self.refusal(hostile)?.code == "batch-undecodable")
        #expect(Self.refusal(hostile)?.message.contains("schema version 3000000000 is above 10000") == true)
        let other = try await Self.push(client, Self.batchBytes(id: "s:1", replica: "s"), token: tokens[1], deviceSequence: 1)
        #expect(other.status == .created)
        #expect(try await client.execute(uri: Wire.Path.ready, method: .get).status == .ok)
      }
      Self.expectStorageNeverMarkedDown(metrics)
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func anIDPastTheIndexEntryLimitIsRefusedAndOtherHouseholdsGoOnAtOnce() async throws {
    try await withPostgres { _, storage, _ in
      let heavy = Self.heavyText(190)  // 190 characters, 3,990 bytes: within the devices' rule for ids
      let metrics = try await Self.withRoutes(storage, households: ["Hostile", "Smith"]) { client, tokens in
        for (number, (id, replica)) in [(heavy + ":1", heavy), ("h:" + heavy, "h")].enumerated() {
          let hostile = try await Self.push(client, Self.batchBytes(id: id, replica: replica), token: tokens[0], deviceSequence: 1)
          #expect(hostile.status == .badRequest)
          #expect(Self.refusal(hostile)?.code == "id-invalid")
          #expect(
            Self.refusal(hostile)?.message.contains("bytes long; the limit is 800") == true, "\(Self.refusal(hostile)?.message ?? "")")
          let other = try await Self.push(
            client, Self.batchBytes(id: "s:\(number + 1)", replica: "s"), token: tokens[1], deviceSequence: Int64(number + 1))
          #expect(other.status == .created)
        }
        let fields: HTTPFields = [.authorization: "Bearer \(tokens[0])", .contentType: Wire.jsonMediaType]
        let registration = try WireCoding.encoder().encode(DeviceRegistration(replicaID: heavy, name: "phone", schemaVersion: 3))
        let registered = try await client.execute(
          uri: Wire.Path.ownDevice, method: .put, headers: fields, body: ByteBuffer(bytes: registration))
        #expect(registered.status == .badRequest)
        #expect(Self.refusal(registered)?.code == "id-invalid")
        #expect(try await client.execute(uri: Wire.Path.ready, method: .get).status == .ok)
      }
      Self.expectStorageNeverMarkedDown(metrics)
      // Nothing of the hostile household's was stored.
      let hostile = try #require(try await storage.household(named: "Hostile"))
      #expect(try await storage.latestSequence(of: hostile.id) == 0)
    }
  }

  /// Below the door, the storage itself says what PostgreSQL refused: the request's data,
  /// not the database being away.
  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func theStorageClassifiesDataPostgreSQLRefusesAsTheRequests() async throws {
    try await withPostgres { _, storage, _ in
      let phone = try #require(try await household(storage, devices: ["phone"])["phone"])
      let heavy = Self.heavyText(190)
      func refusal(_ work: () async throws -> Void) async -> StorageError.Refusal? {
        do {
          try await work()
        } catch StorageError.refused(let refusal) {
          return refusal
        } catch {
          Issue.record("expected a refusal, got \(error)")
        }
        return nil
      }
      let schema = await refusal {
        _ = try await storage.append(
          batch("a:1", replica: "a", schemaVersion: 3_000_000_000), from: phone, deviceSequence: 1, now: Self.now)
      }
      #expect(schema?.kind == .value)
      #expect(schema?.reason == "integer out of range")
      let index = await refusal {
        _ = try await storage.append(batch(heavy + ":1", replica: heavy), from: phone, deviceSequence: 1, now: Self.now)
      }
      #expect(index?.kind == .size)
      #expect(index?.reason.contains("exceeds btree version 4 maximum 2704") == true, "\(index?.reason ?? "")")
      let registered = await refusal {
        _ = try await storage.register(DeviceRegistration(replicaID: heavy, name: "phone", schemaVersion: 3), for: phone, now: Self.now)
      }
      #expect(registered?.kind == .size)
      #expect(try await storage.latestSequence(of: phone.householdID) == 0)
      #expect(try await storage.deviceState(of: phone.deviceID) == DeviceState(replicaID: nil, lastDeviceSequence: 0))
    }
  }
}
