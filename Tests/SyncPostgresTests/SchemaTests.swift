import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import SyncServer
import SyncWire
import Testing

@testable import SyncPostgres

@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
struct SchemaTests {
  @Test func setUpIsRepeatableAndRecordsItsVersionOnce() async throws {
    try await withPostgres { client, _, location in
      #expect(try await PostgresSchema.setUp(client, database: location.description, logger: Logger(label: "t")) == PostgresSchema.version)
      var versions: [Int] = []
      for try await version in try await client.query("SELECT version FROM forager_schema ORDER BY version").decode(Int.self) {
        versions.append(version)
      }
      #expect(versions == Array(1...PostgresSchema.version))
    }
  }

  @Test func aDatabaseFromANewerServerIsRefusedUntouched() async throws {
    try await withPostgres { client, _, location in
      try await client.query("INSERT INTO forager_schema (version) VALUES (\(PostgresSchema.version + 1))")
      await #expect(
        throws: PostgresStorageError.schemaNewer(
          database: location.description, found: PostgresSchema.version + 1, known: PostgresSchema.version)
      ) {
        try await PostgresSchema.setUp(client, database: location.description, logger: Logger(label: "t"))
      }
      await #expect(throws: PostgresStorageError.self) { try await PostgresHouseholdStorage.open(client, database: location.description) }
    }
  }

  @Test func aDatabaseAnEarlierServerSetUpIsUpgradedKeepingItsData() async throws {
    let location = try PostgresLocation(url: try TemporaryPostgres.shared().createDatabase("earlier_" + UUID().uuidString.prefix(8)))
    let client = PostgresClient(configuration: location.configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      let logger = Logger(label: "t")
      #expect(try await PostgresSchema.setUp(client, database: location.description, logger: logger, through: 1) == 1)
      try await client.query("INSERT INTO households (name, identifier, created_at) VALUES ('Smith', gen_random_uuid(), now())")
      // serve refuses it until setup-db has run.
      let refused = await #expect(throws: PostgresStorageError.self) {
        try await PostgresHouseholdStorage.open(client, database: location.description)
      }
      #expect(refused?.description.contains("older than this server's") == true)
      #expect(try await PostgresSchema.setUp(client, database: location.description, logger: logger) == PostgresSchema.version)
      let storage = try await PostgresHouseholdStorage.open(client, database: location.description)
      let household = try #require(try await storage.household(named: "Smith"))
      var minimums: [Int] = []
      for try await value in try await client.query("SELECT minimum_schema FROM households WHERE id = \(household.id)").decode(Int.self) {
        minimums.append(value)
      }
      #expect(minimums == [1])
    }
  }

  /// An earlier server let a second device bind a replica already bound, and let it push
  /// another device's batch id: setup-db still upgrades such a database; the device that
  /// pushed with the replica first keeps it, the other is refused as it, and the squatted
  /// id no longer blocks its device.
  @Test func aDatabaseWhereTwoDevicesShareAReplicaIsUpgradedAndTheFirstPusherKeepsIt() async throws {
    let location = try PostgresLocation(url: try TemporaryPostgres.shared().createDatabase("shared_" + UUID().uuidString.prefix(8)))
    let client = PostgresClient(configuration: location.configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      let logger = Logger(label: "t")
      #expect(try await PostgresSchema.setUp(client, database: location.description, logger: logger, through: 3) == 3)
      // The tablet's device row is older (a lower id), but the phone pushed as 'a' first.
      let devices = try await household(PostgresHouseholdStorage(client: client), devices: ["tablet", "phone"])
      let phone = try #require(devices["phone"]), tablet = try #require(devices["tablet"])
      #expect(tablet.deviceID < phone.deviceID)
      let household = phone.householdID
      try await client.query("UPDATE devices SET replica_id = 'a', last_device_sequence = 1 WHERE household_id = \(household)")
      try await client.query(
        """
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
        VALUES (\(household), 1, 'a:1', \(phone.deviceID), 1, 'a', 3, '\\x00'::bytea, now()),
               (\(household), 2, 'a:2', \(tablet.deviceID), 1, 'a', 3, '\\x00'::bytea, now())
        """)
      try await client.query("UPDATE households SET last_sequence = 2 WHERE id = \(household)")
      #expect(try await PostgresSchema.setUp(client, database: location.description, logger: logger) == PostgresSchema.version)
      let storage = try await PostgresHouseholdStorage.open(client, database: location.description)
      #expect(try await storage.deviceState(of: phone.deviceID) == DeviceState(replicaID: "a", lastDeviceSequence: 1))
      #expect(try await storage.deviceState(of: tablet.deviceID) == DeviceState(replicaID: nil, lastDeviceSequence: 1))
      await #expect(throws: ServerError.replicaTaken("a", holder: "phone", device: "tablet")) {
        try await storage.append(batch("a:3", replica: "a"), from: tablet, deviceSequence: 2, now: Date())
      }
      await #expect(throws: ServerError.replicaTaken("a", holder: "phone", device: "tablet")) {
        try await storage.register(DeviceRegistration(replicaID: "a", name: "tablet", schemaVersion: 3), for: tablet, now: Date())
      }
      #expect(try await storage.append(batch("a:2", replica: "a"), from: phone, deviceSequence: 2, now: Date()).sequence == 3)
      // The index holds from now on, whatever a statement tries.
      await #expect(throws: PSQLError.self) {
        try await client.query("UPDATE devices SET replica_id = 'a' WHERE id = \(tablet.deviceID)")
      }
    }
  }

  @Test func aDatabaseWithoutTheSchemaIsRefusedNamingTheCommand() async throws {
    let location = try PostgresLocation(url: try TemporaryPostgres.shared().createDatabase("empty_" + UUID().uuidString.prefix(8)))
    let client = PostgresClient(configuration: location.configuration)
    await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      let error = await #expect(throws: PostgresStorageError.self) {
        try await PostgresHouseholdStorage.open(client, database: location.description)
      }
      #expect(error?.description.contains("run: forager-server setup-db") == true)
    }
  }

  @Test func namesWithQuotesAndSQLAreValuesNotStatements() async throws {
    try await withPostgres { client, storage, _ in
      let name = "Smith'); DROP TABLE batches; --"
      let device = "ph\"one'; DELETE FROM tokens; --"
      let credential = try #require(try await household(storage, name, devices: [device])[device])
      _ = try await storage.append(
        batch("r':x'); DROP TABLE households; --", replica: "r'"), from: credential, deviceSequence: 1, now: Date())
      _ = try await storage.register(
        DeviceRegistration(replicaID: "r'", name: "Bobby'); --", schemaVersion: 3), for: credential, now: Date())
      #expect(try await storage.household(named: name)?.name == name)
      #expect(try await storage.devices(of: credential.householdID).map(\.name) == ["Bobby'); --"])
      var tables: [String] = []
      for try await table in try await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        .decode(String.self)
      {
        tables.append(table)
      }
      #expect(tables == ["batches", "devices", "forager_schema", "households", "snapshot_pages", "snapshots", "tokens"])
      #expect(try await storage.credential(forTokenHash: Data()) == nil)
    }
  }
}

@Suite struct PostgresLocationTests {
  @Test func aURLIsReadAndItsPasswordNeverShown() throws {
    let location = try PostgresLocation(url: "postgres://forager:s3cr%40t@db.internal:6543/kitchen?sslmode=disable")
    #expect(location == PostgresLocation(host: "db.internal", port: 6543, username: "forager", password: "s3cr@t", database: "kitchen"))
    #expect(location.description == "postgres://forager@db.internal:6543/kitchen")
    let verified = try PostgresLocation(url: "postgres://u@h/d?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem")
    #expect(verified.sslMode == .verifyFull && verified.sslRootCertificate == "/etc/ca.pem")
    #expect(verified.description == "postgres://u@h:5432/d?sslmode=verify-full")
    #expect(try PostgresLocation(url: "postgres://u@h/d?sslmode=allow").sslMode == .prefer)
    #expect(try PostgresLocation(url: "postgres://u@h/d").sslMode == .disable)
    for (url, reason) in [
      ("mysql://x@h/d", "postgres://"), ("postgres://h/d", "no user"), ("postgres://u@h", "no database"),
      ("postgres://u@h:99999/d", "port"), ("postgres://u:pw@:5432/d", "no host"),
      ("postgres://u:pw@h/d?sslmode=always", "sslmode 'always' is not one of"),
      ("postgres://u:pw@h/d?sslmode=require&connect_timeout=3", "the parameter 'connect_timeout' is not one this server reads"),
    ] {
      let error = #expect(throws: PostgresStorageError.self) { try PostgresLocation(url: url) }
      let message = error.map { String(describing: $0) } ?? ""
      #expect(message.contains(reason), "\(url): \(message)")
      #expect(!message.contains("pw"))
    }
  }

  /// TLS is asked of a real server: one without TLS (the test cluster) refuses `require`,
  /// and `prefer` and `disable` connect. One connection is opened as `serve` opens its
  /// first, so a refusal is thrown at once instead of retried by a client's pool.
  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func sslmodeIsHonouredWhenConnecting() async throws {
    let url = try TemporaryPostgres.shared().createDatabase("tls_" + UUID().uuidString.prefix(8))
    try await Self.expectConnections(url, [("sslmode=disable", true), ("sslmode=prefer", true), ("sslmode=require", false)])
  }

  /// Opens one connection per query string (`url?query`) and expects it to connect or be
  /// refused as given.
  static func expectConnections(_ url: String, _ cases: [(query: String, connects: Bool)]) async throws {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    for (query, connects) in cases {
      let location = try PostgresLocation(url: url + "?" + query)
      do {
        try await location.connectOnce(logger: logger)
        #expect(connects, "\(query) connected, but should have been refused")
      } catch {
        #expect(!connects, "\(query): \(String(reflecting: error))")
      }
    }
  }

  /// A server that speaks TLS: `require` connects, `verify-full` connects when it trusts
  /// the server's certificate and refuses when it does not (no root given: the system's
  /// roots do not hold a self-signed certificate).
  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func tlsIsUsedAndVerifiedWhereTheServerSpeaksIt() async throws {
    let cluster = try TemporaryPostgres.start(tls: true)
    defer { cluster.stop() }
    let url = try cluster.createDatabase("tls")
    let root = cluster.certificatePath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    try await Self.expectConnections(
      url,
      [
        ("sslmode=require", true), ("sslmode=verify-full&sslrootcert=\(root)", true), ("sslmode=verify-ca&sslrootcert=\(root)", true),
        ("sslmode=verify-full", false),
      ])
  }
}
