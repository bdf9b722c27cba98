public import Foundation
import Logging
import PostgresNIO
public import SyncServer

extension PostgresHouseholdStorage {
  public func addHousehold(name: String, identifier: String, now: Date) async throws -> HouseholdRecord? {
    guard let uuid = UUID(uuidString: identifier) else {
      throw ServerError.badRequest("identifier-invalid", "a household identifier is a UUID")
    }
    let rows = try await client.query(
      """
      INSERT INTO households (name, identifier, created_at) VALUES (\(name), \(uuid), \(now))
      ON CONFLICT (name) DO NOTHING RETURNING id
      """, logger: logger)
    for try await id in rows.decode(Int64.self) { return HouseholdRecord(id: id, name: name, identifier: identifier) }
    return nil
  }

  public func household(named name: String) async throws -> HouseholdRecord? {
    let rows = try await client.query("SELECT id, identifier FROM households WHERE name = \(name)", logger: logger)
    for try await (id, identifier) in rows.decode((Int64, UUID).self) {
      return HouseholdRecord(id: id, name: name, identifier: identifier.uuidString.lowercased())
    }
    return nil
  }

  public func device(named name: String, in household: Int64, now: Date) async throws -> Int64 {
    try await client.query(
      "INSERT INTO devices (household_id, name, created_at) VALUES (\(household), \(name), \(now)) ON CONFLICT (household_id, name) DO NOTHING",
      logger: logger)
    let rows = try await client.query("SELECT id FROM devices WHERE household_id = \(household) AND name = \(name)", logger: logger)
    for try await id in rows.decode(Int64.self) { return id }
    throw ServerError.internalFailure("device-missing", "device '\(name)' could not be created")
  }

  public func setMinimumSchema(_ version: Int, of household: Int64) async throws {
    try await changeCredentials("UPDATE households SET minimum_schema = \(version) WHERE id = \(household) RETURNING id")
  }

  public func addToken(_ token: TokenRecord) async throws {
    try await client.query(
      """
      INSERT INTO tokens (id, hash, household_id, device_id, created_at, expires_at)
      VALUES (\(token.id), \(token.hash), \(token.householdID), \(token.deviceID), \(token.createdAt), \(token.expiresAt))
      """, logger: logger)
  }

  public func revokeToken(id: String, now: Date) async throws -> Bool {
    try await changeCredentials("UPDATE tokens SET revoked_at = \(now) WHERE id = \(id) AND revoked_at IS NULL RETURNING id") > 0
  }

  public func revokeTokens(ofDevice name: String, in household: Int64, now: Date) async throws -> Int {
    try await changeCredentials(
      """
      UPDATE tokens SET revoked_at = \(now)
      WHERE revoked_at IS NULL AND device_id IN (SELECT id FROM devices WHERE household_id = \(household) AND name = \(name))
      RETURNING id
      """)
  }

  /// Runs a change of what credentials say (revocation, minimum schema) — an UPDATE that
  /// returns a row per changed row — in a transaction that also notifies
  /// `forager_credentials` when it changed anything, so every server process watching
  /// (``watchCredentialChanges(retryAfter:)``) drops its cached credentials as the change
  /// commits; this process's cache is dropped here too. Returns how many rows changed.
  @discardableResult
  private func changeCredentials(_ update: PostgresQuery) async throws -> Int {
    let logger = logger
    let changed = try await PostgresTransaction.run(pool, logger: logger) { connection in
      var changed = 0
      for try await _ in try await connection.query(update, logger: logger) { changed += 1 }
      if changed > 0 { try await connection.query("SELECT pg_notify(\(Self.credentialChannel), '')", logger: logger) }
      return changed
    }
    cache.clear()
    return changed
  }
}
