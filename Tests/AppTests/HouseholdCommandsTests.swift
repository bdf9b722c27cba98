import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

/// `households`, `rename-household` and `delete-household` as an operator runs them beside
/// a serving `forager-server`: what they list, a rename the devices never notice, and a
/// deletion that refuses the household's tokens at once.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct HouseholdCommandsTests {

  @Test func anOperatorListsRenamesAndDeletesHouseholds() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone", "laptop"])
    try serverAdmin(database, ["add-household", "Jones"])
    try serverAdmin(database, ["revoke-token", "--household", "Smith kitchen", "--device", "laptop"])
    let token = try String(contentsOf: directory.appendingPathComponent("phone.token"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let server = try ServerProcess(databaseURL: database, directory: directory, name: "server")
    defer { server.stop() }
    let phone = directory.appendingPathComponent("phone.sqlite")
    let run = try ServerProcessesTests.batch(
      phone,
      """
      cloud open \(server.url) --token-file \(directory.appendingPathComponent("phone.token").path)
      category add Produce
      sync
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    let bytes = try psql(database, "SELECT sum(octet_length(payload)) FROM batches").trimmingCharacters(
      in: .whitespacesAndNewlines)

    let listed = try serverAdmin(database, ["households"])
    #expect(listed.contains("'Jones'\t0 device(s)\t0 live token(s)\t0 batch(es)\t0 bytes\tlast push never"), "\(listed)")
    #expect(listed.contains("'Smith kitchen'\t2 device(s)\t1 live token(s)\t1 batch(es)\t\(bytes) bytes\tlast push 20"), "\(listed)")

    // Renamed: the phone's token goes on working, under the new name.
    #expect(serverAdminRefusal(database, ["rename-household", "Smith kitchen", "Jones"]).contains("household 'Jones' already exists"))
    #expect(serverAdminRefusal(database, ["rename-household", "Smith", "Smiths"]).contains("there is no household 'Smith'"))
    #expect(try serverAdmin(database, ["rename-household", "Smith kitchen", "Smiths"]).contains("is now 'Smiths'"))
    let session = try ServerAvailabilityTests.get(server.url + "/v1/session", token: token)
    #expect(session.status == 200 && session.body.contains(#""household":"Smiths""#), "\(session)")

    // Deleted: not without confirmation; then with its log, devices and tokens, at once.
    let unconfirmed = serverAdminRefusal(database, ["delete-household", "Smiths"])
    #expect(unconfirmed.contains("exited with 1") && unconfirmed.contains("confirm with --yes"), "\(unconfirmed)")
    #expect(try psql(database, "SELECT count(*) FROM batches") == "1\n")
    #expect(serverAdminRefusal(database, ["delete-household", "Nobody", "--yes"]).contains("there is no household 'Nobody'"))
    let deleted = try serverAdmin(database, ["delete-household", "Smiths", "--yes"])
    #expect(deleted.contains("household 'Smiths' deleted: 1 batch(es), 2 device(s), 2 token(s)"), "\(deleted)")
    // The deletion's notification reaches the server as it commits (within milliseconds).
    var refused = try ServerAvailabilityTests.get(server.url + "/v1/session", token: token)
    for _ in 0..<20 where refused.status != 401 {
      usleep(100_000)
      refused = try ServerAvailabilityTests.get(server.url + "/v1/session", token: token)
    }
    #expect(refused.status == 401 && refused.body.contains("token-unknown"), "\(refused)")
    #expect(
      try psql(
        database,
        "SELECT (SELECT count(*) FROM batches) || ' ' || (SELECT count(*) FROM devices) || ' ' || (SELECT count(*) FROM tokens) "
          + "|| ' ' || (SELECT string_agg(name, ',') FROM households)") == "0 0 0 Jones\n")
  }
}
