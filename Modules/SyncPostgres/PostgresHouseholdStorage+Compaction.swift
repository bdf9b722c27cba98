public import Foundation
import PostgresNIO
public import SyncServer

extension PostgresHouseholdStorage {
  /// Compacts the household's log in one transaction under its lock: reads what
  /// `LogCompaction` needs (the floor, the newest snapshot, the devices that hold compaction
  /// back, the first batch inside the retention window), then deletes the batches up to the
  /// new floor and the snapshots below it, and lowers the household's stored bytes.
  public func compactLog(of household: Int64, retainedFrom: Date, assumingSnapshotAt: Int64?, dryRun: Bool, now: Date) async throws
    -> HouseholdCompaction
  {
    let logger = logger
    return try await ErrorClassification.classified {
      try await PostgresTransaction.run(pool, logger: logger) { connection in
        try await connection.query("SELECT pg_advisory_xact_lock(\(household))", logger: logger)
        func number(_ query: PostgresQuery) async throws -> Int64? {
          for try await value in try await connection.query(query, logger: logger).decode(Int64?.self) { return value }
          return nil
        }
        let previous = try await number("SELECT compacted_through FROM households WHERE id = \(household)") ?? 0
        var positions: [Int64] = []
        let kept = try await connection.query("SELECT position FROM snapshots WHERE household_id = \(household)", logger: logger)
        for try await position in kept.decode(Int64.self) { positions.append(position) }
        if dryRun, let assumingSnapshotAt { positions.append(assumingSnapshotAt) }
        let retained = try await number(
          """
          SELECT sequence FROM batches WHERE household_id = \(household) AND received_at >= \(retainedFrom)
          ORDER BY sequence LIMIT 1
          """)
        // HouseholdCompaction.holdsBack: synced (a bound replica or a pull) and a live token.
        var devices: [HouseholdCompaction.Device] = []
        let rows = try await connection.query(
          """
          SELECT d.name, d.pulled_through FROM devices d
          WHERE d.household_id = \(household) AND (d.replica_id IS NOT NULL OR d.pulled_through > 0)
            AND EXISTS (SELECT 1 FROM tokens t WHERE t.device_id = d.id AND t.revoked_at IS NULL AND t.expires_at > \(now))
          """, logger: logger)
        for try await (name, pulled) in rows.decode((String, Int64).self) {
          devices.append(HouseholdCompaction.Device(name: name, pulledThrough: pulled))
        }
        let floor = HouseholdCompaction.floor(
          previousFloor: previous, snapshotPositions: positions, devices: devices, firstRetained: retained)
        var batches = 0
        var bytes: Int64 = 0
        let counted: PostgresQuery =
          dryRun
          ? """
          SELECT count(*), COALESCE(sum(octet_length(payload)), 0)::bigint FROM batches
          WHERE household_id = \(household) AND sequence <= \(floor.through)
          """
          : """
          WITH gone AS (DELETE FROM batches WHERE household_id = \(household) AND sequence <= \(floor.through)
                        RETURNING octet_length(payload) AS size)
          SELECT count(*), COALESCE(sum(size), 0)::bigint FROM gone
          """
        for try await (count, size) in try await connection.query(counted, logger: logger).decode((Int64, Int64).self) {
          batches = Int(count)
          bytes = size
        }
        var snapshots: [Int64] = []
        let below: PostgresQuery =
          dryRun
          ? "SELECT position FROM snapshots WHERE household_id = \(household) AND position < \(floor.through) ORDER BY position"
          : "DELETE FROM snapshots WHERE household_id = \(household) AND position < \(floor.through) RETURNING position"
        if batches > 0 || dryRun {
          for try await position in try await connection.query(below, logger: logger).decode(Int64.self) { snapshots.append(position) }
        }
        if !dryRun && batches > 0 {
          try await connection.query(
            """
            UPDATE households SET compacted_through = \(floor.through), stored_bytes = stored_bytes - \(bytes)
            WHERE id = \(household)
            """, logger: logger)
        }
        return HouseholdCompaction(
          previousFloor: previous, floor: floor.through, limit: floor.limit, reach: floor.reach, batches: batches, bytes: bytes,
          snapshots: snapshots.sorted(), dryRun: dryRun)
      }
    }
  }
}
