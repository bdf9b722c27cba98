import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore
public import Sync
public import SyncWire

/// A refusal the server sends: an HTTP status, a stable code and a message for the person
/// who reads it. Messages name what was wrong and never hold a token's secret.
///
/// ```swift
/// throw ServerError.deviceSequenceGap(device: "phone", got: 9, expected: 8)
/// // 409 {"error":{"code":"device-sequence-gap","message":"device 'phone' ...","expectedDeviceSequence":8}}
/// ```
public struct ServerError: Error, Sendable, Hashable, CustomStringConvertible, HTTPResponseError {
  public let status: HTTPResponse.Status
  public let code: String
  public let message: String
  public let expectedDeviceSequence: Int64?

  public init(_ status: HTTPResponse.Status, code: String, message: String, expectedDeviceSequence: Int64? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.expectedDeviceSequence = expectedDeviceSequence
  }

  public var description: String { "\(status.code) \(code): \(message)" }

  /// The JSON body.
  public var wire: WireError { WireError(.init(code: code, message: message, expectedDeviceSequence: expectedDeviceSequence)) }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    let data = (try? WireCoding.encoder().encode(wire)) ?? Data()
    var headers: HTTPFields = [.contentType: Wire.jsonMediaType]
    if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"forager\"" }
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  // MARK: Authentication (401)

  public static let missingToken = ServerError(
    .unauthorized, code: "token-missing", message: "this request needs a device token: send 'Authorization: Bearer <token>'")
  public static let malformedAuthorization = ServerError(
    .unauthorized, code: "token-malformed", message: "the Authorization header is not 'Bearer <token>' with a Forager device token")
  public static let unknownToken = ServerError(
    .unauthorized, code: "token-unknown", message: "the token is not one this server issued; ask for a new one (forager-server issue-token)"
  )
  static func tokenExpired(_ credential: Credential) -> ServerError {
    ServerError(
      .unauthorized, code: "token-expired",
      message:
        "the token \(credential.tokenID) of device '\(credential.device)' expired at \(stamp(credential.expiresAt)); ask for a new one")
  }
  static func tokenRevoked(_ credential: Credential, at date: Date) -> ServerError {
    ServerError(
      .unauthorized, code: "token-revoked",
      message: "the token \(credential.tokenID) of device '\(credential.device)' was revoked at \(stamp(date)); ask for a new one")
  }

  // MARK: Who may do what (403, 409)

  public static func wrongReplica(device: String, bound: String, claimed: String) -> ServerError {
    ServerError(
      .forbidden, code: "wrong-replica",
      message: "device '\(device)' is replica '\(bound)'; its token cannot push or register as replica '\(claimed)'")
  }
  public static func schemaBelowMinimum(device: String, got: Int, minimum: Int) -> ServerError {
    ServerError(
      .conflict, code: "schema-below-minimum",
      message: "this household takes batches of schema v\(minimum) or newer; device '\(device)' pushes v\(got): update Forager on it")
  }
  public static func batchIDTaken(_ id: String) -> ServerError {
    ServerError(.conflict, code: "batch-id-taken", message: "batch id '\(id)' is already in this household's log, pushed by another device")
  }
  public static func deviceSequenceGap(device: String, got: Int64, expected: Int64) -> ServerError {
    ServerError(
      .conflict, code: "device-sequence-gap",
      message: "device '\(device)' has pushed up to batch \(expected - 1) of its sequence; batch \(got) would skip \(expected)",
      expectedDeviceSequence: expected)
  }
  public static func deviceSequenceReused(device: String, got: Int64, expected: Int64) -> ServerError {
    ServerError(
      .conflict, code: "device-sequence-reused",
      message: "device '\(device)' already pushed batch \(got) of its sequence with another batch id; a new batch must be \(expected)",
      expectedDeviceSequence: expected)
  }

  // MARK: Bad input (400, 413, 415, 422)

  public static func badRequest(_ code: String, _ message: String) -> ServerError { ServerError(.badRequest, code: code, message: message) }
  public static func tooLarge(limit: Int) -> ServerError {
    ServerError(.contentTooLarge, code: "body-too-large", message: "the body is larger than this server's limit of \(limit) bytes")
  }
  public static func wrongContentType(got: String?, expected: String) -> ServerError {
    ServerError(
      .unsupportedMediaType, code: "content-type",
      message: "the body must be '\(expected)'; got \(got.map { "'\($0)'" } ?? "no Content-Type")")
  }
  public static func undecodableBatch(_ reason: String) -> ServerError {
    ServerError(.unprocessableContent, code: "batch-undecodable", message: "the body is not a change batch: \(reason)")
  }

  /// A change of a pushed batch breaks ``ChangeRules``: the code is the rule's
  /// (`change-invalid`, `clock-ahead`, `stamp-invalid`).
  public static func invalidChange(_ violation: ChangeRules.Violation, batch: String, index: Int) -> ServerError {
    let hint = violation.code == .clockAhead ? "; set this device's clock right, then sync again" : ""
    return ServerError(
      .unprocessableContent, code: violation.code.rawValue,
      message: "batch '\(batch.prefix(80))', change \(index + 1): \(violation)\(hint)")
  }

  // MARK: Administration

  public static func householdExists(_ name: String) -> ServerError {
    ServerError(.conflict, code: "household-exists", message: "household '\(name)' already exists")
  }
  public static func noHousehold(_ name: String) -> ServerError {
    ServerError(.notFound, code: "household-unknown", message: "there is no household '\(name)' (add it: forager-server add-household)")
  }

  /// A failure inside the server (its details belong in the server's log, not the answer).
  public static func internalFailure(_ code: String, _ message: String) -> ServerError {
    ServerError(.internalServerError, code: code, message: message)
  }

  static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
