public import Foundation
import Logging
import PostgresNIO
public import SyncServer

extension PostgresHouseholdStorage {
  public func heldBatches(of household: Int64, knownSchemaVersion: Int) async throws -> [HeldBatchEntry] {
    let rows = try await client.query(
      """
      SELECT b.sequence, d.name, b.batch_id, b.replica_id, b.schema_version, octet_length(b.payload), b.received_at
      FROM batches b JOIN devices d ON d.id = b.device_id
      WHERE b.household_id = \(household) AND b.schema_version > \(knownSchemaVersion) AND b.retired_at IS NULL
      ORDER BY b.sequence
      """, logger: logger)
    var entries: [HeldBatchEntry] = []
    for try await (sequence, device, id, replica, schema, size, pushedAt) in rows.decode(
      (Int64, String, String, String, Int, Int, Date).self)
    {
      entries.append(
        HeldBatchEntry(
          sequence: sequence, device: device, batchID: id, replica: replica, schemaVersion: schema, bytes: size, pushedAt: pushedAt))
    }
    return entries
  }

  /// Retires in one transaction under the household's lock: the batch and the registry are
  /// read, ``RetireRules`` decide, then the batch's bytes are replaced, it is marked retired
  /// (`retired_at`) and the notice is appended with the household's next sequence and no
  /// device (`device_id` NULL).
  public func retireBatch(
    _ sequence: Int64, of household: HouseholdRecord, knownSchemaVersion: Int, force: Bool, now: Date
  ) async throws -> RetiredBatch {
    let logger = logger
    return try await PostgresTransaction.run(pool, logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(household.id))", logger: logger)
      let rows = try await connection.query(
        """
        SELECT d.name, b.batch_id, b.replica_id, b.schema_version, octet_length(b.payload), b.received_at, b.retired_at
        FROM batches b JOIN devices d ON d.id = b.device_id
        WHERE b.household_id = \(household.id) AND b.sequence = \(sequence)
        """, logger: logger)
      var stored: RetireRules.Stored?
      for try await (device, id, replica, schema, size, pushedAt, retiredAt) in rows.decode(
        (String, String, String, Int, Int, Date, Date?).self)
      {
        let batch = HeldBatchEntry(
          sequence: sequence, device: device, batchID: id, replica: replica, schemaVersion: schema, bytes: size, pushedAt: pushedAt)
        stored = RetireRules.Stored(batch: batch, retiredAt: retiredAt)
      }
      let devices = try await Self.devices(connection, household.id, logger: logger)
      let retirement = try RetireRules.decide(
        sequence: sequence, household: household.name, stored: stored, devices: devices, knownSchemaVersion: knownSchemaVersion,
        force: force)
      try await connection.query(
        """
        UPDATE batches SET payload = \(retirement.replacement), retired_at = \(now)
        WHERE household_id = \(household.id) AND sequence = \(sequence)
        """, logger: logger)
      let appended = try await connection.query(
        """
        WITH next AS (UPDATE households SET last_sequence = last_sequence + 1 WHERE id = \(household.id) RETURNING last_sequence)
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
        SELECT \(household.id), next.last_sequence, \(RetireRules.noticeID(of: sequence)), NULL, NULL, '', \(knownSchemaVersion),
               \(retirement.notice), \(now)
        FROM next
        RETURNING sequence
        """, logger: logger)
      var notice: Int64 = 0
      for try await value in appended.decode(Int64.self) { notice = value }
      guard notice > 0 else { throw ServerError.internalFailure("household-missing", "household '\(household.name)' is gone") }
      return RetiredBatch(batch: retirement.batch, noticeSequence: notice)
    }
  }

  /// The household's held batches (schema above `knownSchemaVersion`, not retired): how
  /// many, and their bytes.
  static func heldUsage(_ connection: PostgresConnection, _ household: Int64, knownSchemaVersion: Int, logger: Logger) async throws
    -> HeldUsage
  {
    let rows = try await connection.query(
      """
      SELECT count(*), COALESCE(sum(octet_length(payload)), 0)::bigint FROM batches
      WHERE household_id = \(household) AND schema_version > \(knownSchemaVersion) AND retired_at IS NULL AND device_id IS NOT NULL
      """, logger: logger)
    for try await (count, bytes) in rows.decode((Int64, Int64).self) { return HeldUsage(count: Int(count), bytes: Int(bytes)) }
    return .none
  }
}
