import Foundation
import HTTPTypes
import Hummingbird

extension SyncService {
  /// The credential of the request's bearer token.
  /// - Throws: ``ServerError`` (401) for a missing, malformed, unknown, expired or
  ///   revoked token; the message names the token by its public id, never its secret.
  func authenticate(_ request: Request) async throws -> Credential {
    guard let header = request.headers[.authorization] else { throw ServerError.missingToken }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw ServerError.malformedAuthorization }
    let secret = parts[1].trimmingCharacters(in: .whitespaces)
    guard DeviceToken.isWellFormed(secret) else { throw ServerError.malformedAuthorization }
    let hash = DeviceToken.hash(secret)
    guard let credential = try await stored({ try await storage.credential(forTokenHash: hash) }) else { throw ServerError.unknownToken }
    RequestIdentity.current?.set(household: credential.household, device: credential.device)
    if let revoked = credential.revokedAt { throw ServerError.tokenRevoked(credential, at: revoked) }
    let now = configuration.clock()
    guard now < credential.expiresAt else { throw ServerError.tokenExpired(credential) }
    if let retryAfter = rateLimit.take(credential.tokenID, now: now) {
      metrics.rateLimited(limit: "token")
      throw ServerError.rateLimited(credential, retryAfter: retryAfter, rate: configuration.tokenRequestsPerSecond)
    }
    return credential
  }
}
