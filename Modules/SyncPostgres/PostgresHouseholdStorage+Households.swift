public import Foundation
import Logging
import PostgresNIO
public import SyncServer

extension PostgresHouseholdStorage {
  public func householdSummaries(now: Date) async throws -> [HouseholdSummary] {
    let rows = try await client.query(
      """
      SELECT h.name, h.identifier,
        (SELECT count(*) FROM devices d WHERE d.household_id = h.id),
        (SELECT count(*) FROM tokens t WHERE t.household_id = h.id AND t.revoked_at IS NULL AND t.expires_at > \(now)),
        b.batches, b.bytes, b.last_push
      FROM households h
      CROSS JOIN LATERAL (
        SELECT count(*) AS batches, COALESCE(sum(octet_length(payload)), 0)::bigint AS bytes, max(received_at) AS last_push
        FROM batches WHERE household_id = h.id) b
      ORDER BY h.name
      """, logger: logger)
    var summaries: [HouseholdSummary] = []
    for try await (name, identifier, devices, tokens, batches, bytes, lastPush) in rows.decode(
      (String, UUID, Int64, Int64, Int64, Int64, Date?).self)
    {
      summaries.append(
        HouseholdSummary(
          name: name, identifier: identifier.uuidString.lowercased(), devices: Int(devices), liveTokens: Int(tokens),
          batches: Int(batches), bytes: bytes, lastPush: lastPush))
    }
    return summaries
  }

  public func renameHousehold(_ household: Int64, to name: String) async throws -> Bool {
    // Schema step 6's trigger tells every server, whose cached credentials hold the name.
    let rows = try await client.query(
      """
      UPDATE households SET name = \(name) WHERE id = \(household)
        AND NOT EXISTS (SELECT 1 FROM households WHERE name = \(name)) RETURNING id
      """, logger: logger)
    var renamed = false
    for try await _ in rows.decode(Int64.self) { renamed = true }
    cache.clear()
    return renamed
  }

  /// In one transaction under the household's lock (no push of it runs meanwhile): its
  /// batches, tokens, devices and itself. Schema step 6's trigger notifies every server as
  /// it commits, so its tokens are refused at once everywhere.
  public func deleteHousehold(_ household: Int64) async throws -> DeletedHousehold {
    let logger = logger
    let deleted = try await PostgresTransaction.run(pool, logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(household))", logger: logger)
      func count(_ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await connection.query(query, logger: logger) { count += 1 }
        return count
      }
      let batches = try await count("DELETE FROM batches WHERE household_id = \(household) RETURNING 1")
      let tokens = try await count("DELETE FROM tokens WHERE household_id = \(household) RETURNING 1")
      let devices = try await count("DELETE FROM devices WHERE household_id = \(household) RETURNING 1")
      _ = try await count("DELETE FROM households WHERE id = \(household) RETURNING 1")
      return DeletedHousehold(devices: devices, tokens: tokens, batches: batches)
    }
    cache.clear()
    return deleted
  }
}
