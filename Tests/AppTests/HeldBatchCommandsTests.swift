import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

/// `forager-server held-batches` and `retire-batch` as an operator runs them: what they print,
/// and each refusal a non-zero exit with a message that says why, writing nothing.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct HeldBatchCommandsTests {
  @Test func anOperatorListsAndRetiresAHeldBatch() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone", "laptop"])
    #expect(try serverAdmin(database, ["held-batches", "--household", "Smith kitchen"]).contains("holds no batches of a newer schema"))
    // The phone (on a newer Forager) pushed a schema-7 batch; the laptop reads schema 6.
    _ = try psql(
      database,
      """
      WITH next AS (UPDATE households SET last_sequence = last_sequence + 1 RETURNING id, last_sequence),
      device AS (UPDATE devices SET replica_id = 'p', last_device_sequence = 1, schema_version = 7 WHERE name = 'phone')
      INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
      SELECT next.id, next.last_sequence, 'p:1-1', d.id, 1, 'p', 7, '\\x0046420100'::bytea, '2026-11-26 10:00:00+00'
      FROM next JOIN devices d ON d.household_id = next.id AND d.name = 'phone'
      """)
    let listed = try serverAdmin(database, ["held-batches", "--household", "Smith kitchen"])
    #expect(listed.contains("sequence 1\tdevice 'phone'\tbatch p:1-1\tschema v7\t5 bytes\tpushed 2026-11-26T10:00:00Z"), "\(listed)")
    #expect(serverAdminRefusal(database, ["held-batches", "--household", "Jones"]).contains("there is no household 'Jones'"))
    #expect(
      serverAdminRefusal(database, ["retire-batch", "--household", "Smith kitchen", "--sequence", "2"]).contains("is not a held batch"))
    // The laptop upgraded to schema 7: it may have applied the batch.
    _ = try psql(database, "UPDATE devices SET schema_version = 7 WHERE name = 'laptop'")
    let refused = serverAdminRefusal(database, ["retire-batch", "--household", "Smith kitchen", "--sequence", "1"])
    #expect(refused.contains("exited with 1") && refused.contains("device(s) 'laptop'") && refused.contains("--force"), "\(refused)")
    #expect(try psql(database, "SELECT count(*) || ' ' || count(retired_at) FROM batches") == "1 0\n")
    let retired = try serverAdmin(database, ["retire-batch", "--household", "Smith kitchen", "--sequence", "1", "--force"])
    #expect(retired.contains("batch 1 (p:1-1, schema v7, 5 bytes from device 'phone') retired; notice retired:1 is sequence 2"))
    #expect(
      try psql(database, "SELECT sequence || ' ' || batch_id || ' ' || COALESCE(device_id::text, '-') FROM batches ORDER BY 1")
        == "1 p:1-1 \(try psql(database, "SELECT id FROM devices WHERE name = 'phone'").trimmingCharacters(in: .whitespacesAndNewlines))\n2 retired:1 -\n"
    )
    #expect(try serverAdmin(database, ["held-batches", "--household", "Smith kitchen"]).contains("holds no batches"))
    #expect(serverAdminRefusal(database, ["retire-batch", "--household", "Smith kitchen", "--sequence", "1"]).contains("was retired at"))
  }

  @Test func serveRefusesAHeldQuotaOutOfRange() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    #expect(
      serverAdminRefusal(database, ["serve", "--port", "0", "--held-batch-count", "0"]).contains(
        "--held-batch-count must be a whole number from 1 to 100000"))
    #expect(
      serverAdminRefusal(database, ["serve", "--port", "0", "--held-batch-bytes", "2000000000"]).contains(
        "--held-batch-bytes must be a whole number from 1"))
  }
}
