import Foundation
import HTTPTypes
import Hummingbird

extension SyncService {
  /// The credential of the request's bearer token.
  /// - Throws: ``ServerError`` (401) for a missing, malformed, unknown, expired or
  ///   revoked token; the message names the token by its public id, never its secret.
  func authenticate(_ request: Request) async throws -> Credential {
    try await authenticated(request).credential
  }

  /// The credential of the request's bearer token and the hash it is looked up by (to look
  /// it up again later in the request: ``recheck(hash:)``).
  func authenticated(_ request: Request) async throws -> (credential: Credential, hash: Data) {
    guard let header = request.headers[.authorization] else { throw ServerError.missingToken }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw ServerError.malformedAuthorization }
    let secret = parts[1].trimmingCharacters(in: .whitespaces)
    guard DeviceToken.isWellFormed(secret) else { throw ServerError.malformedAuthorization }
    let hash = DeviceToken.hash(secret)
    let credential = try await current(hash)
    let now = configuration.clock()
    if let retryAfter = rateLimit.take(credential.tokenID, now: now) {
      metrics.rateLimited(limit: "token")
      throw ServerError.rateLimited(credential, retryAfter: retryAfter, rate: configuration.tokenRequestsPerSecond)
    }
    return (credential, hash)
  }

  /// Looks the token up again, just before a request acts on what it read meanwhile (a push
  /// whose body took a while to arrive): a token revoked or expired since, or whose household
  /// was deleted, is refused now, not after the act.
  /// - Throws: ``ServerError`` (401) as ``authenticate(_:)``.
  func recheck(hash: Data) async throws {
    _ = try await current(hash)
  }

  /// The token's credential as the storage has it now, refused when unknown, revoked or expired.
  private func current(_ hash: Data) async throws -> Credential {
    guard let credential = try await stored({ try await storage.credential(forTokenHash: hash) }) else { throw ServerError.unknownToken }
    RequestIdentity.current?.set(household: credential.household, device: credential.device)
    if let revoked = credential.revokedAt { throw ServerError.tokenRevoked(credential, at: revoked) }
    guard configuration.clock() < credential.expiresAt else { throw ServerError.tokenExpired(credential) }
    return credential
  }
}
