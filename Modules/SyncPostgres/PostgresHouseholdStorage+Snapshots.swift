public import Foundation
import Logging
import PostgresNIO
public import SyncServer

/// Snapshots in `snapshots` (one row per snapshot) and `snapshot_pages` (one row per page),
/// both removed with their household.
extension PostgresHouseholdStorage: SnapshotStore {
  public func snapshots(of household: Int64) async throws -> [SnapshotHeader] {
    try await ErrorClassification.classified {
      let rows = try await client.query(
        """
        SELECT position, schema_version, page_count, records, bytes, created_at FROM snapshots
        WHERE household_id = \(household) ORDER BY position
        """, logger: logger)
      var headers: [SnapshotHeader] = []
      for try await (position, schema, pages, records, bytes, createdAt) in rows.decode((Int64, Int, Int, Int, Int64, Date).self) {
        headers.append(
          SnapshotHeader(position: position, schemaVersion: schema, pageCount: pages, records: records, bytes: bytes, createdAt: createdAt))
      }
      return headers
    }
  }

  public func snapshotPage(of household: Int64, position: Int64, page: Int) async throws -> Data? {
    try await ErrorClassification.classified {
      let rows = try await client.query(
        """
        SELECT payload FROM snapshot_pages WHERE household_id = \(household) AND position = \(position) AND page = \(page)
        """, logger: logger)
      for try await payload in rows.decode(Data.self) { return payload }
      return nil
    }
  }

  /// Stores the snapshot and its pages in one transaction under the household's lock,
  /// then drops the household's snapshots older than the one before it, but for the oldest
  /// at or above the log's floor.
  public func saveSnapshot(_ header: SnapshotHeader, pages: [Data], of household: Int64) async throws {
    let logger = logger
    try await ErrorClassification.classified {
      try await PostgresTransaction.run(pool, logger: logger) { connection in
        try await connection.query("SELECT pg_advisory_xact_lock(\(household))", logger: logger)
        let inserted = try await connection.query(
          """
          INSERT INTO snapshots (household_id, position, schema_version, page_count, records, bytes, created_at)
          VALUES (\(household), \(header.position), \(header.schemaVersion), \(pages.count), \(header.records), \(header.bytes),
                  \(header.createdAt))
          ON CONFLICT DO NOTHING
          RETURNING 1
          """, logger: logger)
        var isNew = false
        for try await _ in inserted.decode(Int.self) { isNew = true }
        guard isNew else { return }
        for (index, page) in pages.enumerated() {
          try await connection.query(
            """
            INSERT INTO snapshot_pages (household_id, position, page, payload)
            VALUES (\(household), \(header.position), \(index), \(page))
            """, logger: logger)
        }
        try await connection.query(
          """
          DELETE FROM snapshots WHERE household_id = \(household) AND position < (
            SELECT position FROM snapshots WHERE household_id = \(household) ORDER BY position DESC OFFSET 1 LIMIT 1)
            AND position <> (
              SELECT min(position) FROM snapshots WHERE household_id = \(household)
                AND position >= (SELECT compacted_through FROM households WHERE id = \(household)))
          """, logger: logger)
      }
    }
  }
}
