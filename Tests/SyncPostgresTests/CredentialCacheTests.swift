import Foundation
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncWire
import Testing

/// Token lookups cached while credential changes are heard: a revocation or a new minimum
/// schema made by another process (another storage on its own client) reaches a watching
/// server as it commits, and a storage that is not watching caches nothing.
@Suite(.timeLimit(.minutes(2))) struct CredentialCacheTests {
  /// A second storage on its own client: another server process, or `forager-server revoke-token`.
  static func withOtherProcess<T: Sendable>(
    _ location: PostgresLocation, _ body: @escaping @Sendable (PostgresClient, PostgresHouseholdStorage) async throws -> T
  ) async throws -> T {
    try await location.withRunningClient { client in try await body(client, PostgresHouseholdStorage(client: client)) }
  }

  /// Waits (up to 10 s) until `condition` holds.
  static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<200 {
      if try await condition() { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  /// Whether a lookup is answered from the cache: the token's expiry is moved in the
  /// database behind the storage's back (with schema step 6's trigger off, so without the
  /// notification it sends), and the storage still answers the old one.
  static func isCached(_ storage: PostgresHouseholdStorage, _ client: PostgresClient, _ issued: Administration.IssuedToken) async throws
    -> Bool
  {
    let hash = DeviceToken.hash(issued.token.secret)
    let before = try await storage.credential(forTokenHash: hash)?.expiresAt
    try await client.query("ALTER TABLE tokens DISABLE TRIGGER tokens_notify_credentials")
    try await client.query("UPDATE tokens SET expires_at = expires_at + interval '1 day' WHERE id = \(issued.token.id)")
    try await client.query("ALTER TABLE tokens ENABLE TRIGGER tokens_notify_credentials")
    return try await storage.credential(forTokenHash: hash)?.expiresAt == before
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aTokenRevokedOrChangedByPlainSQLIsRefusedAtOnce() async throws {
    try await withPostgres { client, storage, _ in
      let watcher = Task { await storage.watchCredentialChanges(retryAfter: .milliseconds(50)) }
      defer { watcher.cancel() }
      let admin = Administration(storage: storage)
      _ = try await admin.addHousehold("Smith")
      let phone = try await admin.issueToken(household: "Smith", device: "phone")
      let tablet = try await admin.issueToken(household: "Smith", device: "tablet")
      let phoneHash = DeviceToken.hash(phone.token.secret)
      #expect(try await Self.eventually { try await Self.isCached(storage, client, tablet) })
      #expect(try await storage.credential(forTokenHash: phoneHash)?.revokedAt == nil)
      // By plain SQL, as an operator or another tool would: no forager-server command runs.
      try await client.query("UPDATE tokens SET revoked_at = now() WHERE id = \(phone.token.id)")
      #expect(try await Self.eventually { try await storage.credential(forTokenHash: phoneHash)?.revokedAt != nil })
      try await client.query("UPDATE households SET minimum_schema = 3 WHERE name = 'Smith'")
      #expect(
        try await Self.eventually {
          try await storage.credential(forTokenHash: DeviceToken.hash(tablet.token.secret))?.minimumSchema == 3
        })
      try await client.query("DELETE FROM tokens WHERE id = \(tablet.token.id)")
      #expect(try await Self.eventually { try await storage.credential(forTokenHash: DeviceToken.hash(tablet.token.secret)) == nil })
    }
  }

  /// The token's expiry as the database holds it.
  static func storedExpiry(_ client: PostgresClient, _ issued: Administration.IssuedToken) async throws -> Date? {
    for try await expiry in try await client.query("SELECT expires_at FROM tokens WHERE id = \(issued.token.id)").decode(Date.self) {
      return expiry
    }
    return nil
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aRevocationElsewhereReachesAWatchingServerAsItCommits() async throws {
    try await withPostgres { client, storage, location in
      let watcher = Task { await storage.watchCredentialChanges(retryAfter: .milliseconds(50)) }
      defer { watcher.cancel() }
      let admin = Administration(storage: storage)
      _ = try await admin.addHousehold("Smith")
      let phone = try await admin.issueToken(household: "Smith", device: "phone")
      let tablet = try await admin.issueToken(household: "Smith", device: "tablet")
      #expect(try await Self.eventually { try await Self.isCached(storage, client, tablet) })
      #expect(try await storage.credential(forTokenHash: DeviceToken.hash(phone.token.secret))?.revokedAt == nil)
      // Revoked by another process: refused here as soon as the notification arrives.
      try await Self.withOtherProcess(location) { _, other in
        #expect(try await Administration(storage: other).revokeToken(id: phone.token.id))
        try await Administration(storage: other).setMinimumSchema(household: "Smith", version: 3)
      }
      #expect(
        try await Self.eventually {
          try await storage.credential(forTokenHash: DeviceToken.hash(phone.token.secret))?.revokedAt != nil
        })
      // The notification cleared every entry: the tablet's is read afresh, with the new
      // minimum schema and the expiry the database holds.
      let refreshed = try await storage.credential(forTokenHash: DeviceToken.hash(tablet.token.secret))
      #expect(refreshed?.minimumSchema == 3)
      #expect(try await refreshed?.expiresAt == Self.storedExpiry(client, tablet))
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aStorageThatIsNotWatchingCachesNothing() async throws {
    try await withPostgres { client, storage, _ in
      let admin = Administration(storage: storage)
      _ = try await admin.addHousehold("Smith")
      let phone = try await admin.issueToken(household: "Smith", device: "phone")
      #expect(try await !Self.isCached(storage, client, phone))
      #expect(try await !Self.isCached(storage, client, phone))
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func whenWatchingStopsTheCacheIsOff() async throws {
    try await withPostgres { client, storage, _ in
      let watcher = Task { await storage.watchCredentialChanges(retryAfter: .milliseconds(50)) }
      let admin = Administration(storage: storage)
      _ = try await admin.addHousehold("Smith")
      let phone = try await admin.issueToken(household: "Smith", device: "phone")
      #expect(try await Self.eventually { try await Self.isCached(storage, client, phone) })
      watcher.cancel()
      await watcher.value
      #expect(try await !Self.isCached(storage, client, phone))
    }
  }
}
