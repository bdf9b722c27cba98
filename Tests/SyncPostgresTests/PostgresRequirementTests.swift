import ServerTestSupport
import Testing

/// Where the test command installed PostgreSQL (`FORAGER_REQUIRE_POSTGRES=1`), a machine
/// that cannot run it fails here with the reason, instead of skipping every server test.
@Suite struct PostgresRequirementTests {
  @Test(.enabled(if: postgresRequired, "FORAGER_REQUIRE_POSTGRES is not set"))
  func postgresCanRunWhereItIsRequired() {
    #expect(TemporaryPostgres.unavailableReason == nil, "PostgreSQL is required here: \(TemporaryPostgres.unavailableReason ?? "")")
  }
}
