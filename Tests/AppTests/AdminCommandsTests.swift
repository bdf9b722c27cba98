import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

/// `forager-server`'s administrative commands as an operator types them: a misspelled name
/// or an option out of range is an error that says so and changes nothing, and a token
/// that could not be written to its file is not left live.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct AdminCommandsTests {

  func tokens(_ database: String) throws -> String {
    try psql(database, "SELECT count(*) || ' live ' || count(*) FILTER (WHERE revoked_at IS NULL) FROM tokens")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func anUnknownHouseholdDeviceOrTokenIsAnErrorNamingItThatRevokesNothing() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone"])
    let misspelled = serverAdminRefusal(database, ["revoke-token", "--household", "Smith kitchen", "--device", "phnoe"])
    #expect(misspelled.contains("exited with 1") && misspelled.contains("has no device 'phnoe'"), "\(misspelled)")
    let household = serverAdminRefusal(database, ["revoke-token", "--household", "Smith kitchn", "--device", "phone"])
    #expect(household.contains("exited with 1") && household.contains("there is no household 'Smith kitchn'"), "\(household)")
    let token = serverAdminRefusal(database, ["revoke-token", "tok_nothing"])
    #expect(token.contains("exited with 1") && token.contains("there is no live token tok_nothing"), "\(token)")
    #expect(try tokens(database) == "1 live 1")
    let revoked = try serverAdmin(database, ["revoke-token", "--household", "Smith kitchen", "--device", "phone"])
    #expect(revoked.contains("1 token(s) of device 'phone' revoked"))
    let again = try serverAdmin(database, ["revoke-token", "--household", "Smith kitchen", "--device", "phone"])
    #expect(again.contains("device 'phone' has no live token; nothing revoked"))
    let devices = serverAdminRefusal(database, ["devices", "--household", "Jones"])
    #expect(devices.contains("exited with 1") && devices.contains("there is no household 'Jones'"))
  }

  @Test func aTokenForAFileThatCannotBeWrittenIsNeverIssued() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let missing = directory.appendingPathComponent("no-such-directory/tablet.token").path
    let refused = serverAdminRefusal(database, ["issue-token", "--household", "Smith kitchen", "--device", "tablet", "--output", missing])
    #expect(refused.contains("the directory \(directory.path)/no-such-directory does not exist"), "\(refused)")
    let onDirectory = serverAdminRefusal(
      database, ["issue-token", "--household", "Smith kitchen", "--device", "tablet", "--output", directory.path])
    #expect(onDirectory.contains("is a directory"), "\(onDirectory)")
    let household = serverAdminRefusal(
      database, ["issue-token", "--household", "Jones", "--device", "tablet", "--output", directory.appendingPathComponent("t").path])
    #expect(household.contains("exited with 1") && household.contains("there is no household 'Jones'"), "\(household)")
    #expect(try tokens(database) == "0 live 0")
    #expect(try psql(database, "SELECT count(*) FROM devices") == "0\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    // Written: mode 600, the secret on one line, no staging file left beside it.
    let file = directory.appendingPathComponent("tablet.token")
    let issued = try serverAdmin(database, ["issue-token", "--household", "Smith kitchen", "--device", "tablet", "--output", file.path])
    #expect(issued.contains("written to \(file.path)"))
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("fgr1_"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tablet.token"])
    #expect(try tokens(database) == "1 live 1")
  }

  @Test func optionsOutOfRangeAreRefusedWhenParsedAndTheirRangesAreInTheHelp() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let cases: [([String], String)] = [
      (["serve", "--port", "0", "--max-pull-limit", "0"], "--max-pull-limit must be a whole number from 1 to 10000; got 0"),
      (["serve", "--port", "0", "--max-pull-limit=-5"], "--max-pull-limit must be a whole number from 1 to 10000; got -5"),
      (["serve", "--port", "0", "--max-pull-limit", "20000"], "--max-pull-limit must be a whole number from 1 to 10000; got 20000"),
      (["serve", "--port", "0", "--max-batch-bytes", "0"], "--max-batch-bytes must be a whole number from 1024 to 67108864; got 0"),
      (["serve", "--port", "70000"], "--port must be a whole number from 0 to 65535; got 70000"),
      (["serve", "--port", "0", "--log-level", "loud"], "--log-level 'loud' is not a level"),
      (["serve", "--port", "0", "--address-rate-limit", "0"], "--address-rate-limit must be a whole number from 1 to 100000; got 0"),
      (
        ["serve", "--port", "0", "--address-rate-burst", "100001"],
        "--address-rate-burst must be a whole number from 1 to 100000; got 100001"
      ),
      (["serve", "--port", "0", "--live-gap-ms", "1001"], "--live-gap-ms must be a whole number from 0 to 1000; got 1001"),
      (["serve", "--port", "0", "--live-gap-ms=-1"], "--live-gap-ms must be a whole number from 0 to 1000; got -1"),
      (["serve", "--port", "0", "--live-hold-ms", "1001"], "--live-hold-ms must be a whole number from 0 to 1000; got 1001"),
      (["serve", "--port", "0", "--live-hold-ms=-1"], "--live-hold-ms must be a whole number from 0 to 1000; got -1"),
      (
        ["serve", "--port", "0", "--max-connections-per-address", "0"],
        "--max-connections-per-address must be a whole number from 1 to 100000; got 0"
      ),
      (
        ["serve", "--port", "0", "--max-connections", "8", "--max-connections-per-address", "9"],
        "--max-connections-per-address (9) must be at most --max-connections (8)"
      ),
      (
        ["serve", "--port", "0", "--trust-forwarded-for", "--max-connections-per-address", "9"],
        "--max-connections-per-address cannot be given with --trust-forwarded-for"
      ),
      (["serve", "--port", "0", "--check-slots", "0"], "--check-slots must be a whole number from 1 to 256; got 0"),
      (["serve", "--port", "0", "--checks-per-household", "257"], "--checks-per-household must be a whole number from 1 to 256; got 257"),
      (["serve", "--port", "0", "--checks-per-address", "0"], "--checks-per-address must be a whole number from 1 to 256; got 0"),
      (["serve", "--port", "0", "--check-queue=-1"], "--check-queue must be a whole number from 0 to 1000; got -1"),
      (["serve", "--port", "0", "--check-timeout", "0"], "--check-timeout must be a whole number from 1 to 300; got 0"),
      (
        ["issue-token", "--household", "Smith kitchen", "--device", "phone", "--days", "0"], "--days must be a whole number from 1 to 3650"
      ),
      (["set-minimum-schema", "--household", "Smith kitchen", "--schema", "0"], "--schema must be a whole number from 1 to 10000"),
      (["revoke-token", "--household", "Smith kitchen"], "give a token id, or --household and --device"),
      (
        ["serve", "--port", "0", "--household-stored-bytes", "1000"],
        "--household-stored-bytes must be a whole number from 1048576 to 17592186044416; got 1000"
      ),
      (
        ["serve", "--port", "0", "--household-daily-push-bytes", "0"],
        "--household-daily-push-bytes must be a whole number from 1048576 to 17592186044416; got 0"
      ),
      (
        ["household-quota", "--household", "Smith kitchen", "--stored-bytes", "5"],
        "--stored-bytes must be a whole number from 1048576 to 17592186044416; got 5"
      ),
    ]
    for (arguments, message) in cases {
      let refused = serverAdminRefusal(database, arguments)
      #expect(refused.contains(message), "forager-server \(arguments.joined(separator: " ")): \(refused)")
    }
    #expect(try tokens(database) == "0 live 0")
    let help = try serverAdmin(database, ["serve", "--help"])
    // Each limit's range and default in the help: ServeLimitsTests, over the whole table.
    #expect(help.contains("default: 4 MiB"), "serve --help lacks the default of --max-batch-bytes")
    for option in [
      "--address-rate-limit", "--address-rate-burst", "--trust-forwarded-for", "--live-gap-ms", "--live-hold-ms",
      "--household-stored-bytes", "--household-daily-push-bytes", "--max-connections-per-address", "--check-slots",
      "--checks-per-household", "--checks-per-address", "--check-queue", "--check-timeout",
    ] {
      #expect(help.contains(option), "serve --help lacks \(option)")
    }
  }

  @Test func householdQuotaShowsAndSetsOneHouseholdsQuota() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let shown = try serverAdmin(database, ["household-quota", "--household", "Smith kitchen"])
    #expect(shown.contains("household 'Smith kitchen'"), "\(shown)")
    #expect(shown.contains("stored\t0 bytes\tquota the server's (serve option)"), "\(shown)")
    let raised = try serverAdmin(database, ["household-quota", "--household", "Smith kitchen", "--stored-bytes", "8589934592"])
    #expect(raised.contains("stored\t0 bytes\tquota 8589934592 bytes (its own)"), "\(raised)")
    #expect(raised.contains("daily quota the server's (serve option)"), "\(raised)")
    #expect(try psql(database, "SELECT quota_stored_bytes FROM households").contains("8589934592"))
    let reset = try serverAdmin(database, ["household-quota", "--household", "Smith kitchen", "--default"])
    #expect(reset.contains("quota the server's (serve option)"), "\(reset)")
    let unknown = serverAdminRefusal(database, ["household-quota", "--household", "Jones", "--stored-bytes", "8589934592"])
    #expect(unknown.contains("exited with 1") && unknown.contains("there is no household 'Jones'"), "\(unknown)")
  }
}
