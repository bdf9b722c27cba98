import ServerTestSupport
import Testing

/// The bench's server figures are measured on a durable cluster, the tests' on a fast one:
/// the two settings are what PostgreSQL itself reports.
@Suite(.enabled(if: TemporaryPostgres.unavailableReason == nil, "PostgreSQL is not installed"))
struct ClusterDurabilityTests {
  @Test func aDurableClusterFlushesEveryCommitAndTheTestClusterDoesNot() throws {
    let durable = try TemporaryPostgres.start(durable: true)
    defer { durable.stop() }
    #expect(try durable.setting("fsync") == "on")
    #expect(try durable.setting("synchronous_commit") == "on")
    let fast = try TemporaryPostgres.shared()
    #expect(try fast.setting("fsync") == "off")
  }
}
