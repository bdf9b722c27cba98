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
    guard let credential = try await storage.credential(forTokenHash: DeviceToken.hash(secret)) else { throw ServerError.unknownToken }
    if let revoked = credential.revokedAt { throw ServerError.tokenRevoked(credential, at: revoked) }
    guard configuration.clock() < credential.expiresAt else { throw ServerError.tokenExpired(credential) }
    return credential
  }
}
