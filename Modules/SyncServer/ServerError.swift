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
  /// For `cursor-ahead`: where the household's log really ends.
  public let latestSequence: Int64?
  /// Seconds after which the request may be sent again: the `Retry-After` header.
  public let retryAfter: Int?
  /// For `log-compacted`: the first batch the household's log still keeps.
  public let firstKeptSequence: Int64?

  public init(
    _ status: HTTPResponse.Status, code: String, message: String, expectedDeviceSequence: Int64? = nil, latestSequence: Int64? = nil,
    retryAfter: Int? = nil, firstKeptSequence: Int64? = nil
  ) {
    self.firstKeptSequence = firstKeptSequence
    self.status = status
    self.code = code
    self.message = message
    self.expectedDeviceSequence = expectedDeviceSequence
    self.latestSequence = latestSequence
    self.retryAfter = retryAfter
  }

  public var description: String { "\(status.code) \(code): \(message)" }

  /// The JSON body.
  public var wire: WireError {
    WireError(
      .init(
        code: code, message: message, expectedDeviceSequence: expectedDeviceSequence, latestSequence: latestSequence,
        firstKeptSequence: firstKeptSequence))
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    let data = (try? WireCoding.encoder().encode(wire)) ?? Data()
    var headers: HTTPFields = [.contentType: Wire.jsonMediaType]
    if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"forager\"" }
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
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
  public static func replicaTaken(_ replica: String, holder: String, device: String) -> ServerError {
    ServerError(
      .conflict, code: "replica-taken",
      message:
        "replica '\(replica)' belongs to device '\(holder)' of this household; device '\(device)' cannot register or push as it "
        + "(a store copied from another device must be reset to get a replica of its own)")
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

  /// A pull after a place past the end of the household's log: the log was restored from
  /// an earlier point (or a read replica is behind). The device pulls again from
  /// `latest`, the log's real end, so it skips none of the batches appended from there.
  public static func cursorAhead(cursor: Int64, latest: Int64) -> ServerError {
    ServerError(
      .conflict, code: "cursor-ahead",
      message: "the cursor is at sequence \(cursor) but the household's log ends at \(latest) (was the server's database restored "
        + "from an earlier point?); pull again from sequence \(latest)",
      latestSequence: latest)
  }
  /// A pull after a place below the household log's floor: the batches after it were
  /// compacted away (Docs/SERVER.md, "Compaction"). The device starts again from the
  /// snapshot, joining it into what it holds, and pulls after the snapshot's position.
  public static func logCompacted(cursor: Int64, firstKept: Int64) -> ServerError {
    ServerError(
      .gone, code: "log-compacted",
      message: "the household's log no longer keeps the batches after sequence \(cursor): it starts at sequence \(firstKept) "
        + "(compacted); start again from the snapshot (GET /v1/snapshot) and pull after its position",
      firstKeptSequence: firstKept)
  }
  /// A pull with a cursor of another log than the household's: the log was given a new
  /// identifier (after a restore) or the cursor is another household's.
  public static func cursorOtherLog(cursor: String, log: String) -> ServerError {
    ServerError(
      .conflict, code: "cursor-other-log",
      message: "the cursor belongs to log \(cursor), not to this household's log \(log) (was the database restored?); "
        + "open the cloud again to start over with this log")
  }
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
  /// A batch whose size once expanded breaks ``ChangeRules/sizeProblem(_:)``: too many
  /// changes, expanded bytes or merge edges.
  public static func batchTooCostly(_ reason: String) -> ServerError {
    ServerError(.contentTooLarge, code: "batch-too-costly", message: "the batch costs more than a batch may: \(reason)")
  }
  public static func batchIDInvalid(_ id: String, replica: String) -> ServerError {
    ServerError(
      .unprocessableContent, code: "batch-id-invalid",
      message: "batch id '\(id)' does not start with its replica '\(replica)' and ':'; a device names its batches '<its replica>:…'")
  }

  // MARK: Held batches (413, 429)

  public static func heldQuotaCount(held: HeldUsage, limit: Int, known: Int) -> ServerError {
    ServerError(
      .tooManyRequests, code: "held-quota-count",
      message: "this household already holds \(held.count) batches (\(held.bytes) bytes) of schemas newer than v\(known), which this "
        + "server stores unread; it takes no more than \(limit). Upgrade the server to read them, or have its operator list and "
        + "retire them (forager-server held-batches, retire-batch)")
  }
  public static func heldQuotaBytes(held: HeldUsage, adding: Int, limit: Int, known: Int) -> ServerError {
    ServerError(
      .contentTooLarge, code: "held-quota-bytes",
      message: "this household already holds \(held.count) batches (\(held.bytes) bytes) of schemas newer than v\(known), which this "
        + "server stores unread; \(adding) bytes more would pass its limit of \(limit) bytes. Upgrade the server to read them, or "
        + "have its operator list and retire them (forager-server held-batches, retire-batch)")
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
  public static func batchNotHeld(_ sequence: Int64, household: String, reason: String) -> ServerError {
    ServerError(
      .notFound, code: "batch-not-held",
      message: "batch \(sequence) of household '\(household)' is not a held batch: \(reason) (list them: forager-server held-batches)")
  }
  public static func retireNeedsForce(_ sequence: Int64, schemaVersion: Int, devices: [String]) -> ServerError {
    let names = devices.map { "'\($0)'" }.joined(separator: ", ")
    return ServerError(
      .conflict, code: "retire-needs-force",
      message: "batch \(sequence) is schema v\(schemaVersion) and device(s) \(names) registered v\(schemaVersion) or newer: they may have "
        + "applied it, and retiring it would leave them with changes the others never get. Retire it anyway with --force")
  }
  public static func noHousehold(_ name: String) -> ServerError {
    ServerError(.notFound, code: "household-unknown", message: "there is no household '\(name)' (add it: forager-server add-household)")
  }
  public static func noDevice(_ name: String, household: String) -> ServerError {
    ServerError(
      .notFound, code: "device-unknown",
      message: "household '\(household)' has no device '\(name)' (list them: forager-server devices --household …)")
  }
  public static func noLiveToken(_ id: String) -> ServerError {
    ServerError(
      .notFound, code: "token-unknown",
      message: "there is no live token \(id): no token has that id, or it was already revoked (a token's id starts with 'tok_')")
  }

  /// A client address past its request rate (``RequestRateLimit``, ``ClientAddress``).
  static func addressRateLimited(_ address: String, retryAfter: Int, rate: Int) -> ServerError {
    ServerError(
      .tooManyRequests, code: "rate-limited",
      message: "address \(address) made more than \(rate) requests a second; try again in \(retryAfter) s", retryAfter: retryAfter)
  }

  /// A token past its request rate (``RequestRateLimit``).
  static func rateLimited(_ credential: Credential, retryAfter: Int, rate: Int) -> ServerError {
    ServerError(
      .tooManyRequests, code: "rate-limited",
      message: "token \(credential.tokenID) of device '\(credential.device)' made more than \(rate) requests a second; "
        + "try again in \(retryAfter) s",
      retryAfter: retryAfter)
  }

  // MARK: Batch checks (Docs/SERVER.md, "Fair CPU")

  /// As many checks of the household, or of the client address, wait for a turn as may.
  static func checkQueueFull(household: Bool, limit: Int) -> ServerError {
    ServerError(
      .tooManyRequests, code: "check-queue-full",
      message: "\(limit) batches of this \(household ? "household" : "address") already wait to be checked, the most that may; "
        + "try again in 1 s",
      retryAfter: 1)
  }

  /// A push whose check had no turn before its deadline: the server is checking other batches.
  static func checksBusy(_ limit: Duration, retryAfter: Int) -> ServerError {
    ServerError(
      .serviceUnavailable, code: "checks-busy",
      message: "the server is checking other batches and had no turn for this one within \(describe(limit)); try again later",
      retryAfter: retryAfter)
  }

  /// A push whose check did not finish before its deadline: abandoned between two changes.
  static func checkTimeout(_ limit: Duration, retryAfter: Int) -> ServerError {
    ServerError(
      .serviceUnavailable, code: "check-timeout",
      message: "checking the batch took longer than this server's limit of \(describe(limit)) (--check-timeout); "
        + "try again later, or push fewer changes at once",
      retryAfter: retryAfter)
  }

  /// A duration as whole seconds ("5 s") or milliseconds ("250 ms").
  static func describe(_ duration: Duration) -> String {
    let milliseconds = Int(duration / .milliseconds(1))
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
  }

  // MARK: Live channel (Docs/SERVER.md, "Live")

  /// A token holding as many live subscriptions as it may.
  static func liveTokenLimit(token: String, limit: Int) -> ServerError {
    ServerError(
      .tooManyRequests, code: "live-token-limit",
      message: "token \(token) already holds \(limit) live subscription(s), the most one token may; close one first", retryAfter: 5)
  }

  /// A server holding as many live subscriptions as it may.
  static func liveFull(limit: Int) -> ServerError {
    ServerError(
      .serviceUnavailable, code: "live-full",
      message: "this server holds \(limit) live subscriptions, its limit (--live-subscribers); poll, or subscribe again later",
      retryAfter: 30)
  }

  /// A server shutting down takes no new subscriptions.
  static let liveClosing = ServerError(
    .serviceUnavailable, code: "live-closing", message: "this server is shutting down; subscribe again in a moment", retryAfter: 1)

  /// A request whose body did not arrive in time.
  static func bodyTimeout(_ limit: Duration) -> ServerError {
    ServerError(
      .requestTimeout, code: "body-timeout",
      message: "the request's body did not arrive within \(limit.components.seconds) s; send it again")
  }

  /// The database did not answer in time or failed: the request changed nothing the
  /// device can rely on (a push may still have been stored; its retry is recognised).
  public static func storageUnavailable(retryAfter: Int) -> ServerError {
    ServerError(
      .serviceUnavailable, code: "storage-unavailable", message: "the server's database is unavailable; try again later",
      retryAfter: retryAfter)
  }

  /// A failure inside the server (its details belong in the server's log, not the answer).
  public static func internalFailure(_ code: String, _ message: String) -> ServerError {
    ServerError(.internalServerError, code: code, message: message)
  }

  static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
