import Foundation
import PostgresNIO

// The statements every sync request runs, prepared once per connection by postgres-nio
// (`PostgresClient.execute(_:)`): a push or a pull then costs PostgreSQL no parsing or
// planning, which was the largest share of its time under load (Docs/PERFORMANCE.md,
// "Hand-written code and its measured reasons").

/// A token's credential by the SHA-256 of its secret.
struct CredentialByTokenHash: PostgresPreparedStatement {
  static let name = "forager_credential_by_token_hash"
  static let sql = """
    SELECT t.id, h.id, h.name, h.identifier, d.id, d.name, t.expires_at, t.revoked_at, h.minimum_schema
    FROM tokens t JOIN households h ON h.id = t.household_id JOIN devices d ON d.id = t.device_id
    WHERE t.hash = $1
    """
  typealias Row = (String, Int64, String, UUID, Int64, String, Date, Date?, Int)

  let hash: Data

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings()
    try bindings.append(hash)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// The plain push in one round trip (`forager_append_next`, server schema step 3): the
/// batch's sequence, or NULL when the push needs ``PushRules``.
struct AppendNext: PostgresPreparedStatement {
  static let name = "forager_append_next"
  static let sql = "SELECT forager_append_next($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
  typealias Row = Int64?

  let household: Int64
  let device: Int64
  let batchID: String
  let deviceSequence: Int64
  let replica: String
  let schemaVersion: Int32
  let payload: Data
  let received: Date
  /// The server's household quota (the household's own, when set, applies instead).
  let maxStored: Int64
  let maxDaily: Int64

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings()
    bindings.append(household)
    bindings.append(device)
    bindings.append(batchID)
    bindings.append(deviceSequence)
    bindings.append(replica)
    bindings.append(schemaVersion)
    try bindings.append(payload)
    bindings.append(received)
    bindings.append(maxStored)
    bindings.append(maxDaily)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64?.self) }
}

/// A pull's page, the household's newest sequence and its floor, in one snapshot: one row
/// per batch, or one row of NULLs with the newest sequence when the page is empty. The page
/// holds the batches whose running total of bytes stays within $4 (and always the first):
/// sizes are read with `octet_length`, which does not fetch a stored value, so a batch past
/// the budget is never read. When $5 is a device of the household, its pulled position is
/// raised to $2 in the same statement (never past the log's end): compaction reads it.
struct LogPageAfter: PostgresPreparedStatement {
  static let name = "forager_log_page_after_pulled"
  static let sql = """
    WITH pulled AS (
      UPDATE devices d SET pulled_through = $2
      FROM households o
      WHERE d.id = $5 AND d.household_id = $1 AND o.id = $1 AND d.pulled_through < $2 AND $2 <= o.last_sequence
      RETURNING 1)
    SELECT h.last_sequence, h.compacted_through, b.sequence, b.payload
    FROM households h
    LEFT JOIN LATERAL (
      SELECT w.sequence, w.payload FROM (
        SELECT sequence, payload, row_number() OVER (ORDER BY sequence) AS place,
          sum(octet_length(payload)) OVER (ORDER BY sequence) AS running
        FROM (SELECT sequence, payload FROM batches
              WHERE household_id = h.id AND sequence > $2 ORDER BY sequence LIMIT $3) page) w
      WHERE w.place = 1 OR w.running <= $4) b ON true
    WHERE h.id = $1
    ORDER BY b.sequence
    """
  typealias Row = (Int64, Int64, Int64?, Data?)

  let household: Int64
  let after: Int64
  let limit: Int64
  let maxBytes: Int64
  /// The pulling device; 0: none (no device has that id).
  let device: Int64

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings()
    bindings.append(household)
    bindings.append(after)
    bindings.append(limit)
    bindings.append(maxBytes)
    bindings.append(device)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
