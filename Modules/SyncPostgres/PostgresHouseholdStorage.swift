public import Foundation
public import Logging
public import PostgresNIO
public import SyncServer
public import SyncWire

/// The server's storage on PostgreSQL: households, devices, tokens (hashes only) and each
/// household's log of batches, through postgres-nio with bound parameters only.
///
/// **Ordering.** A push runs in one transaction that first takes
/// `pg_advisory_xact_lock(household id)`, then reads what ``PushRules`` need, takes the
/// household's next sequence number (`households.last_sequence + 1`) and appends. The lock
/// is held until commit, so a household's batches commit in sequence order: a pull that
/// sees sequence n has every batch below n, and never skips one that commits late. Pushes
/// of different households do not wait for each other.
///
/// The client must be running (`client.run()` in a task, or as a service of the
/// application) while the storage is used.
///
/// ```swift
/// let client = PostgresClient(configuration: location.configuration)
/// let storage = try await PostgresHouseholdStorage.open(client, database: location.description)
/// ```
public struct PostgresHouseholdStorage: HouseholdStorage {
  let client: PostgresClient
  /// The client's pool, measured: the calls of requests lease their connections here.
  let pool: MeteredPool
  let logger: Logger
  /// Credentials by token hash while ``watchCredentialChanges(retryAfter:)`` runs.
  let cache = CredentialCache()
  /// The notification channel of credential changes.
  static let credentialChannel = "forager_credentials"

  /// The storage of the client's database, unchecked: call ``checkSchema(database:)``
  /// before serving (``open(_:database:logger:)`` does both).
  public init(client: PostgresClient, logger: Logger? = nil) {
    self.client = client
    pool = MeteredPool(client: client)
    self.logger = logger ?? Logger(label: "forager-server.postgres")
  }

  /// Refuses a database whose schema is missing, older or newer than this build's.
  /// - Throws: ``PostgresStorageError``.
  public func checkSchema(database: String) async throws {
    try await PostgresSchema.check(client, database: database, logger: logger)
  }

  /// The storage of a database whose schema is this build's.
  /// - Throws: ``PostgresStorageError`` when the schema is missing, older or newer (run
  ///   `forager-server setup-db`), or the database's error when it cannot be reached.
  public static func open(_ client: PostgresClient, database: String, logger: Logger? = nil) async throws -> PostgresHouseholdStorage {
    let storage = PostgresHouseholdStorage(client: client, logger: logger)
    try await storage.checkSchema(database: database)
    return storage
  }

  // MARK: Requests

  /// From the cache while credential changes are watched, else from the database.
  public func credential(forTokenHash hash: Data) async throws -> Credential? {
    if let cached = cache.credential(for: hash) { return cached }
    let generation = cache.generation
    let logger = logger
    let found = try await ErrorClassification.classified {
      try await pool.withConnection { connection -> Credential? in
        let rows = try await connection.execute(CredentialByTokenHash(hash: hash), logger: logger)
        for try await (tokenID, householdID, household, identifier, deviceID, device, expiresAt, revokedAt, minimumSchema) in rows {
          return Credential(
            tokenID: tokenID, householdID: householdID, household: household, cloudIdentifier: identifier.uuidString.lowercased(),
            deviceID: deviceID, device: device, expiresAt: expiresAt, revokedAt: revokedAt, minimumSchema: minimumSchema)
        }
        return nil
      }
    }
    if let found { cache.store(found, for: hash, readIn: generation) }
    return found
  }

  /// Listens for credential changes (`forager_credentials`, sent by every revocation and
  /// minimum-schema change in the same transaction) and keeps lookups of tokens cached
  /// only while it hears them: a server running this looks each token up once, not on every
  /// request, and still refuses a revoked token as soon as the revocation commits. When the
  /// connection drops the cache is off until listening again, `retryAfter` later. Runs until
  /// its task is cancelled; a server runs it as a service of its own (``CredentialWatcher``).
  ///
  /// - Parameter onChange: called on each notification, and each time listening (re)starts
  ///   (a change made while nobody listened is not replayed): a server passes its
  ///   ``LiveAnnouncer/credentialsChanged()``, so open live streams are checked again.
  public func watchCredentialChanges(retryAfter: Duration = .seconds(1), onChange: @escaping @Sendable () -> Void = {}) async {
    let cache = cache
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: Self.credentialChannel) { notifications in
            cache.setListening(true)
            defer { cache.setListening(false) }
            onChange()
            for try await _ in notifications {
              cache.clear()
              onChange()
            }
          }
        }
      } catch {
        cache.setListening(false)
        if !Task.isCancelled {
          logger.warning("not listening for credential changes (token lookups uncached): \(String(describing: error))")
        }
      }
      try? await Task.sleep(for: retryAfter)
    }
  }
  /// Appends in one round trip when the push is the plain case — a batch id of its own
  /// replica new for the device, the device's next sequence, its own replica (or one no
  /// other device holds), a schema this server reads — through `forager_append_next`
  /// (schema steps 3 and 5), which takes the household's lock, checks exactly that, and
  /// writes nothing otherwise. Every other push (a retry, a gap, a reused number, another
  /// replica, a held batch) is decided by ``PushRules`` in
  /// ``appendChecked(_:from:deviceSequence:quota:now:)``, so its answer and message come
  /// from one place.
  public func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    try await ErrorClassification.classified {
      try await appendClassifiable(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
    }
  }

  private func appendClassifiable(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    if !quota.holds(batch) {
      let statement = AppendNext(
        household: credential.householdID, device: credential.deviceID, batchID: batch.id, deviceSequence: deviceSequence,
        replica: batch.replica, schemaVersion: Int32(clamping: batch.schemaVersion), payload: batch.bytes, received: now,
        maxStored: quota.household.storedBytes, maxDaily: quota.household.dailyPushBytes)
      let logger = logger
      let appended = try await pool.withConnection { connection -> Int64? in
        for try await sequence in try await connection.execute(statement, logger: logger) { return sequence }
        return nil
      }
      if let appended { return PushReceipt(sequence: appended, deviceSequence: deviceSequence, stored: true) }
    }
    return try await appendChecked(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
  }

  /// A push decided by ``PushRules`` inside the household's lock.
  func appendChecked(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    let household = credential.householdID
    let logger = logger
    // Six round trips (seven for a held batch): BEGIN; the household's lock; the device
    // (locked against a concurrent registration), this device's batch with this id and
    // another device holding the replica in one read; for a held batch, the household's
    // held batches; the household's usage and quota; the append (next sequence, the batch,
    // the device) in one statement; COMMIT.
    return try await PostgresTransaction.run(pool, logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(household))", logger: logger)
      var context = PushRules.Context(device: DeviceState(replicaID: nil, lastDeviceSequence: 0))
      let found = try await connection.query(
        """
        SELECT d.replica_id, d.last_device_sequence, b.sequence, b.device_sequence,
          (SELECT o.name FROM devices o
           WHERE o.household_id = \(household) AND o.replica_id = \(batch.replica) AND o.id <> d.id LIMIT 1)
        FROM devices d LEFT JOIN batches b ON b.household_id = \(household) AND b.device_id = d.id AND b.batch_id = \(batch.id)
        WHERE d.id = \(credential.deviceID)
        FOR UPDATE OF d
        """, logger: logger)
      for try await (replica, last, sequence, sequenceOfDevice, holder) in found.decode((String?, Int64, Int64?, Int64?, String?).self) {
        context.device = DeviceState(replicaID: replica, lastDeviceSequence: last)
        context.replicaHolder = holder
        if let sequence, let sequenceOfDevice {
          context.existing = PushRules.Existing(sequence: sequence, deviceSequence: sequenceOfDevice)
        }
      }
      if quota.holds(batch) {
        context.held = try await Self.heldUsage(connection, household, knownSchemaVersion: quota.knownSchemaVersion, logger: logger)
      }
      context.usage = try await Self.householdUsage(connection, household, now: now, logger: logger)
      switch try PushRules.decide(batch, deviceSequence: deviceSequence, credential: credential, context: context, quota: quota) {
      case .alreadyStored(let receipt):
        return receipt
      case .append(let sequenceOfDevice, _):
        var sequence: Int64 = 0
        let appended = try await connection.query(
          """
          WITH next AS (
            UPDATE households SET last_sequence = last_sequence + 1 WHERE id = \(household) RETURNING last_sequence),
          device AS (
            UPDATE devices SET last_device_sequence = \(sequenceOfDevice), replica_id = COALESCE(replica_id, \(batch.replica))
            WHERE id = \(credential.deviceID))
          INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
          SELECT \(household), next.last_sequence, \(batch.id), \(credential.deviceID), \(sequenceOfDevice), \(batch.replica),
                 \(batch.schemaVersion), \(batch.bytes), \(now)
          FROM next
          RETURNING sequence
          """, logger: logger)
        for try await value in appended.decode(Int64.self) { sequence = value }
        guard sequence > 0 else { throw ServerError.internalFailure("household-missing", "the household of this token is gone") }
        return PushReceipt(sequence: sequence, deviceSequence: sequenceOfDevice, stored: true)
      }
    }
  }

  public func batches(of household: Int64, after sequence: Int64, limit: Int) async throws -> [PulledBatch] {
    try await ErrorClassification.classified {
      let rows = try await client.query(
        "SELECT sequence, payload FROM batches WHERE household_id = \(household) AND sequence > \(sequence) ORDER BY sequence LIMIT \(limit)",
        logger: logger)
      var entries: [PulledBatch] = []
      for try await (sequence, payload) in rows.decode((Int64, Data).self) {
        entries.append(PulledBatch(sequence: sequence, batch: payload))
      }
      return entries
    }
  }

  /// The page, the household's newest sequence and its floor in one query (one snapshot);
  /// batches past the byte budget are counted by their stored size and never read.
  public func page(of household: Int64, after sequence: Int64, limit: Int, maxBytes: Int) async throws -> LogPage {
    try await page(of: household, device: 0, after: sequence, limit: limit, maxBytes: maxBytes)
  }

  /// The page as ``page(of:after:limit:maxBytes:)`` reads it, with the device's pulled
  /// position raised to `sequence` in the same statement.
  public func page(of household: Int64, device: Int64, after sequence: Int64, limit: Int, maxBytes: Int) async throws -> LogPage {
    let statement = LogPageAfter(household: household, after: sequence, limit: Int64(limit), maxBytes: Int64(maxBytes), device: device)
    let logger = logger
    return try await ErrorClassification.classified {
      try await pool.withConnection { connection in
        var latest: Int64 = 0, floor: Int64 = 0, entries: [PulledBatch] = []
        for try await (last, compacted, sequence, payload) in try await connection.execute(statement, logger: logger) {
          latest = last
          floor = compacted
          if let sequence, let payload { entries.append(PulledBatch(sequence: sequence, batch: payload)) }
        }
        return LogPage(entries: entries, latestSequence: latest, compactedThrough: floor)
      }
    }
  }

  public func latestSequence(of household: Int64) async throws -> Int64 {
    let logger = logger
    return try await ErrorClassification.classified {
      try await pool.withConnection { connection in
        let rows = try await connection.query("SELECT last_sequence FROM households WHERE id = \(household)", logger: logger)
        for try await value in rows.decode(Int64.self) { return value }
        return 0
      }
    }
  }

  public func deviceState(of device: Int64) async throws -> DeviceState {
    try await ErrorClassification.classified { try await pool.withConnection { try await Self.deviceState($0, device, logger: logger) } }
  }

  static func deviceState(_ connection: PostgresConnection, _ device: Int64, logger: Logger) async throws -> DeviceState {
    let rows = try await connection.query("SELECT replica_id, last_device_sequence FROM devices WHERE id = \(device)", logger: logger)
    for try await (replica, last) in rows.decode((String?, Int64).self) { return DeviceState(replicaID: replica, lastDeviceSequence: last) }
    return DeviceState(replicaID: nil, lastDeviceSequence: 0)
  }

  public func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry {
    try await ErrorClassification.classified { try await registerClassifiable(registration, for: credential, now: now) }
  }

  private func registerClassifiable(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry {
    let logger = logger
    // Under the household's lock, as a push: two devices cannot bind one replica at once.
    return try await PostgresTransaction.run(pool, logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(credential.householdID))", logger: logger)
      let rows = try await connection.query(
        """
        SELECT d.replica_id,
          (SELECT o.name FROM devices o
           WHERE o.household_id = d.household_id AND o.replica_id = \(registration.replicaID) AND o.id <> d.id LIMIT 1)
        FROM devices d WHERE d.id = \(credential.deviceID) FOR UPDATE OF d
        """, logger: logger)
      var bound: String?, holder: String?
      for try await (replica, other) in rows.decode((String?, String?).self) { (bound, holder) = (replica, other) }
      try PushRules.checkReplica(bound: bound, claimed: registration.replicaID, holder: holder, device: credential.device)
      try await connection.query(
        """
        UPDATE devices SET replica_id = \(registration.replicaID), registered_name = \(registration.name),
          schema_version = \(registration.schemaVersion), last_seen = \(now)
        WHERE id = \(credential.deviceID)
        """, logger: logger)
      return DeviceEntry(
        device: credential.device, replicaID: registration.replicaID, name: registration.name,
        schemaVersion: registration.schemaVersion, lastSeen: now)
    }
  }

  /// One round trip (`SELECT 1`) through the client's pool.
  public func checkReachable() async throws {
    let logger = logger
    try await ErrorClassification.classified {
      try await pool.withConnection { connection in
        for try await _ in try await connection.query("SELECT 1", logger: logger) {}
      }
    }
  }

  public func devices(of household: Int64) async throws -> [DeviceEntry] {
    try await ErrorClassification.classified { try await pool.withConnection { try await Self.devices($0, household, logger: logger) } }
  }

  static func devices(_ connection: PostgresConnection, _ household: Int64, logger: Logger) async throws -> [DeviceEntry] {
    let rows = try await connection.query(
      """
      SELECT name, replica_id, COALESCE(registered_name, name), schema_version, last_seen
      FROM devices WHERE household_id = \(household) ORDER BY name
      """, logger: logger)
    var devices: [DeviceEntry] = []
    for try await (device, replica, name, schema, lastSeen) in rows.decode((String, String?, String, Int, Date?).self) {
      devices.append(DeviceEntry(device: device, replicaID: replica, name: name, schemaVersion: schema, lastSeen: lastSeen))
    }
    return devices
  }
}
