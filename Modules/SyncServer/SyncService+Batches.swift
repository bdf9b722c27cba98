import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Sync
import SyncWire

extension SyncService {
  /// `POST /v1/batches`: checks the token, content type, device sequence, size and the
  /// batch itself, then appends it through ``PushRules``. 201 when stored, 200 for a retry
  /// of a stored batch. The token is looked up again once the body has arrived: a token
  /// revoked or expired while its body was on the way (or whose household was deleted)
  /// stores nothing.
  func push(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let (credential, hash) = try await authenticated(request)
    try requireContentType(request, Wire.batchMediaType)
    let deviceSequence = try Self.deviceSequence(request)
    let bytes = try await collect(request, limit: configuration.maxBatchBytes)
    let batch = try await read(bytes, household: credential.householdID, address: clientAddress(request, context: context))
    try await recheck(hash: hash)
    guard batch.schemaVersion >= credential.minimumSchema else {
      throw ServerError.schemaBelowMinimum(device: credential.device, got: batch.schemaVersion, minimum: credential.minimumSchema)
    }
    let (quota, now) = (configuration.heldQuota, configuration.clock())
    // One household's pushes take at most a few database connections at once (HouseholdPushQueue);
    // while they are under way, the household's announcements wait for them (LiveAnnouncer).
    let receipt: PushReceipt
    do {
      receipt = try await announcer.duringPush(of: credential.householdID) {
        try await pushQueue.run(
          credential.householdID, timeout: configuration.storageTimeout, retryAfter: configuration.unavailableRetryAfter
        ) {
          try await stored { try await storage.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now) }
        }
      }
    } catch let error as ServerError where error.code.hasPrefix("household-quota-") {
      metrics.householdQuotaRefused(String(error.code.dropFirst("household-quota-".count)))
      throw error
    }
    if receipt.stored {
      // This process's subscribers hear it now, or once the household's other pushes under
      // way have ended; other servers' through PostgreSQL's notification.
      announcer.announce(household: credential.householdID, sequence: receipt.sequence)
      metrics.stored(household: credential.household, bytes: batch.bytes.count)
      logger.info(
        "household \(credential.householdID) device '\(credential.device)': batch \(receipt.deviceSequence) stored as \(receipt.sequence)")
    }
    return json(receipt.encodedJSON(), status: receipt.stored ? .created : .ok)
  }

  /// `GET /v1/batches?cursor=&limit=`: a page of the household's log after the cursor;
  /// `409 cursor-ahead` with the log's real end for a cursor past it.
  func pull(_ request: Request) async throws -> Response {
    let credential = try await authenticate(request)
    let query = request.uri.queryParameters
    var after: Int64 = 0
    if let text = query.get(Wire.Query.cursor) {
      guard let cursor = PullCursor(encoded: text) else {
        throw ServerError.badRequest(
          "cursor-invalid", "the cursor is not one this server issued; pass back a page's 'cursor', or none to start")
      }
      if let log = cursor.log, log != credential.cloudIdentifier.lowercased() {
        throw ServerError.cursorOtherLog(cursor: log, log: credential.cloudIdentifier)
      }
      after = cursor.sequence
    }
    var limit = configuration.defaultPullLimit
    if let text = query.get(Wire.Query.limit) {
      guard let value = Int(text), value >= 1, value <= configuration.maxPullLimit else {
        throw ServerError.badRequest("limit-invalid", "limit must be a whole number from 1 to \(configuration.maxPullLimit)")
      }
      limit = value
    }
    let maxBytes = configuration.maxPageBytes
    let page = try await stored { [limit, after] in
      try await storage.page(of: credential.householdID, device: credential.deviceID, after: after, limit: limit, maxBytes: maxBytes)
    }
    guard after >= page.compactedThrough else {
      throw ServerError.logCompacted(cursor: after, firstKept: page.compactedThrough + 1)
    }
    // A cursor past the log's end is never echoed back as if the log reached it.
    guard after <= page.latestSequence else { throw ServerError.cursorAhead(cursor: after, latest: page.latestSequence) }
    let last = page.entries.last?.sequence ?? after
    let answer = PullPage(
      entries: page.entries, cursor: PullCursor(after: last, log: credential.cloudIdentifier).encoded,
      latestSequence: page.latestSequence,
      endedAtByteLimit: page.entries.count < limit && last < page.latestSequence)
    metrics.pulled(batches: answer.entries.count, bytes: answer.entries.reduce(0) { $0 + $1.batch.count })
    return Self.streamed(answer)
  }

  /// The page's JSON sent piece by piece (``PullPage/jsonPieces()``), with its length
  /// known beforehand: the server holds the page's batches and one entry's base64 at a
  /// time, never the whole document in a second and third copy.
  static func streamed(_ page: PullPage) -> Response {
    let body = ResponseBody(contentLength: page.encodedJSONCount) { writer in
      for piece in page.jsonPieces() { try await writer.write(ByteBuffer(bytes: piece)) }
      try await writer.finish(nil)
    }
    return Response(status: .ok, headers: [.contentType: Wire.jsonMediaType], body: body)
  }

  /// Refuses a batch whose changes break ``ChangeRules`` — the rules every device applies
  /// on pull — on the server's clock: `422 change-invalid` (a value, name or date),
  /// `422 clock-ahead` (a stamp past the server's clock plus the allowed skew) or
  /// `422 stamp-invalid` (a stamp of another replica, an impossible counter), each naming
  /// the batch, the change's place, its record and field. Between two changes it gives its
  /// turn up while another household's check waits (``CheckTurns``), and it is abandoned
  /// once `deadline` passes: `503 check-timeout`.
  func check(_ batch: ChangeBatch, turn: CheckTurns.Turn, deadline: ContinuousClock.Instant) async throws(ServerError) {
    // Its ids were checked with the header (`Validation.identifier`).
    if let problem = ChangeRules.sizeProblem(batch) { throw .batchTooCostly(problem) }
    let rules = ChangeRules(now: configuration.clock(), allowedSkew: configuration.allowedSkew)
    for (index, change) in batch.changes.enumerated() {
      guard await turn.checkpoint(deadline: deadline) else { throw checkAbandoned() }
      if let violation = rules.violation(in: change, of: batch) {
        throw .invalidChange(violation, batch: batch.id, index: index)
      }
    }
  }

  /// Decodes and checks a batch of a schema this server reads, in turns
  /// (``ServerConfiguration/checkSlots``, ``ServerConfiguration/checksPerHousehold``,
  /// ``ServerConfiguration/checksPerAddress``) and within ``ServerConfiguration/checkTimeout``.
  /// - Throws: `429 check-queue-full`, `503 checks-busy` (no turn in time), `503
  ///   check-timeout` (not finished in time), or the batch's own refusal.
  func decodeAndCheck(_ bytes: Data, schemaVersion: Int, household: Int64, address: String?) async throws(ServerError) {
    let deadline = ContinuousClock.now + configuration.checkTimeout
    let turn: CheckTurns.Turn?
    do {
      turn = try await checks.turn(household: household, address: address, deadline: deadline)
    } catch {
      switch error {
      case .queueFull(let ofHousehold):
        metrics.checkRefused("check-queue-full")
        throw .checkQueueFull(household: ofHousehold, limit: configuration.checkQueue)
      }
    }
    guard let turn else {
      metrics.checkRefused("checks-busy")
      throw .checksBusy(configuration.checkTimeout, retryAfter: configuration.unavailableRetryAfter)
    }
    defer { turn.end() }
    let batch: ChangeBatch
    do {
      batch = try ChangeBatchCoding.decode(bytes)
    } catch let error as ChangeBatchCoding.DecodingError {
      throw .undecodableBatch("\(error.reason) (schema \(schemaVersion), which this server reads)")
    } catch {
      throw .undecodableBatch("it cannot be read")
    }
    try await check(batch, turn: turn, deadline: deadline)
  }

  /// The refusal of a check abandoned at its deadline (or because its request was cancelled).
  func checkAbandoned() -> ServerError {
    metrics.checkRefused("check-timeout")
    return .checkTimeout(configuration.checkTimeout, retryAfter: configuration.unavailableRetryAfter)
  }

  static func deviceSequence(_ request: Request) throws(ServerError) -> Int64 {
    guard let name = HTTPField.Name(Wire.deviceSequenceHeader), let text = request.headers[name] else {
      throw .badRequest(
        "device-sequence-missing",
        "a push needs a '\(Wire.deviceSequenceHeader)' header: the batch's number in its device's sequence (1, 2, …)")
    }
    guard let value = Int64(text), value >= 1 else {
      throw .badRequest("device-sequence-invalid", "'\(Wire.deviceSequenceHeader)' must be a whole number from 1; got '\(text.prefix(40))'")
    }
    return value
  }

  /// The batch's header and, for a schema this server knows, its whole content: a batch
  /// that does not decode is refused. A newer schema's batch is stored unread past its header.
  func read(_ bytes: Data, household: Int64, address: String?) async throws(ServerError) -> IncomingBatch {
    guard !bytes.isEmpty else { throw .undecodableBatch("the body is empty") }
    guard bytes.starts(with: [0x00, 0x46, 0x42, 0x01]) else {
      throw .undecodableBatch("it does not start with the batch format's magic bytes 00 46 42 01")
    }
    let header: ChangeBatchCoding.Header
    do {
      header = try ChangeBatchCoding.header(bytes)
    } catch let error as ChangeBatchCoding.DecodingError {
      throw .undecodableBatch(error.reason)
    } catch {
      throw .undecodableBatch("its header cannot be read")
    }
    try Validation.identifier(header.id, what: "batch id")
    try Validation.identifier(header.replica, what: "replica id")
    guard header.schemaVersion >= 1 else { throw .undecodableBatch("schema version \(header.schemaVersion) is below 1") }
    guard Validation.schemaVersions.contains(header.schemaVersion) else {
      throw .undecodableBatch(
        "schema version \(header.schemaVersion) is above \(Validation.schemaVersions.upperBound), the highest a batch may carry")
    }
    if header.schemaVersion <= configuration.knownSchemaVersion {
      try await decodeAndCheck(bytes, schemaVersion: header.schemaVersion, household: household, address: address)
    }
    return IncomingBatch(id: header.id, replica: header.replica, schemaVersion: header.schemaVersion, bytes: bytes)
  }
}
