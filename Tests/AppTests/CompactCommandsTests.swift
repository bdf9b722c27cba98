import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

/// `forager-server compact-household` as an operator runs it: what it prints with and
/// without `--dry-run`, what it drops, and its refusals (a non-zero exit naming why,
/// dropping nothing).
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct CompactCommandsTests {
  @Test func anOperatorCompactsAHouseholdsLog() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone", "laptop"])
    // Four batches of the phone, pushed days ago; snapshots at 2 and 3; the phone pulled
    // after 3, the laptop (never synced) holds nothing back.
    _ = try psql(
      database,
      """
      WITH h AS (UPDATE households SET last_sequence = 4 RETURNING id),
      d AS (UPDATE devices SET replica_id = 'p', last_device_sequence = 4, pulled_through = 3 WHERE name = 'phone' RETURNING id)
      INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
      SELECT h.id, s, 'p:' || s, d.id, s, 'p', 3, '\\x0046420100'::bytea, '2026-11-20 10:00:00+00'
      FROM h, d, generate_series(1, 4) AS s
      """)
    _ = try psql(
      database,
      """
      INSERT INTO snapshots (household_id, position, schema_version, page_count, records, bytes, created_at)
      SELECT id, p, 3, 0, 0, 0, '2026-11-20 11:00:00+00' FROM households, (VALUES (2), (3)) AS v(p)
      """)
    let planned = try serverAdmin(database, ["compact-household", "Smith kitchen", "--dry-run"])
    #expect(planned.contains("would drop batches 1–3 (3 batches, 15 bytes)"), "\(planned)")
    #expect(planned.contains("floor 3, set by device 'phone', which has pulled only that far"), "\(planned)")
    #expect(planned.contains("would drop snapshots at 2"))
    #expect(try psql(database, "SELECT count(*) FROM batches") == "4\n")
    let done = try serverAdmin(database, ["compact-household", "Smith kitchen"])
    #expect(done.contains("dropped batches 1–3 (3 batches, 15 bytes)") && done.contains("dropped snapshots at 2"), "\(done)")
    #expect(try psql(database, "SELECT string_agg(sequence::text, ',') FROM batches") == "4\n")
    #expect(try psql(database, "SELECT compacted_through || ' ' || stored_bytes FROM households") == "3 5\n")
    #expect(try psql(database, "SELECT string_agg(position::text, ',') FROM snapshots") == "3\n")
    #expect(try serverAdmin(database, ["compact-household", "Smith kitchen"]).contains("nothing to drop; its log starts after sequence 3"))
    // Once the phone pulled after 4, a run makes a snapshot at 4 and drops up to it.
    _ = try psql(database, "UPDATE devices SET pulled_through = 4 WHERE name = 'phone'")
    let further = try serverAdmin(database, ["compact-household", "Smith kitchen"])
    #expect(further.contains("dropped batch 4 (1 batches, 5 bytes)") && further.contains("dropped snapshots at 3"), "\(further)")
    #expect(try psql(database, "SELECT string_agg(position::text, ',') || ' ' || (SELECT count(*) FROM batches) FROM snapshots") == "4 0\n")
    #expect(serverAdminRefusal(database, ["compact-household", "Jones"]).contains("there is no household 'Jones'"))
    let outOfRange = serverAdminRefusal(database, ["compact-household", "Smith kitchen", "--retention", "4000"])
    #expect(outOfRange.contains("--retention must be a whole number from 0 to 3650; got 4000"), "\(outOfRange)")
  }
}
