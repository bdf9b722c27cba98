public import Foundation

/// How many batches of a schema newer than the server reads a household may hold, and in
/// how many bytes.
///
/// The server stores such a batch unread past its header (Docs/SERVER.md, "Newer schemas")
/// and every device that pulls it keeps it until it can read it, so without a limit one
/// device could fill every store of its household. Past the limit a push of another such
/// batch is refused and nothing is written; batches an operator retired
/// (`forager-server retire-batch`) no longer count.
///
/// ```swift
/// let quota = HeldBatchQuota(knownSchemaVersion: 3, maxBytes: 16 << 20, maxCount: 64)
/// try quota.check(adding: batch, to: HeldUsage(count: 64, bytes: 1_000))   // throws held-quota-count
/// ```
public struct HeldBatchQuota: Sendable, Hashable {
  /// The newest schema version the server reads: batches above it are held.
  public var knownSchemaVersion: Int
  /// The most bytes of held batches a household may have.
  public var maxBytes: Int
  /// The most held batches a household may have.
  public var maxCount: Int
  /// The server's default household quota (stored bytes, bytes pushed a day), decided
  /// beside the held batches' in the same critical section (``PushRules``); a household's
  /// own setting overrides it (``HouseholdUsage``).
  public var household = HouseholdQuota()

  /// The values `forager-server serve --held-batch-bytes` accepts (1 byte to 1 GiB).
  public static let bytesRange = 1...(1 << 30)
  /// The values `forager-server serve --held-batch-count` accepts.
  public static let countRange = 1...100_000

  public init(knownSchemaVersion: Int = 3, maxBytes: Int = 16 << 20, maxCount: Int = 64) {
    self.knownSchemaVersion = knownSchemaVersion
    self.maxBytes = maxBytes
    self.maxCount = maxCount
  }

  /// Whether the server holds this batch unread (its schema is newer than it reads).
  public func holds(_ batch: IncomingBatch) -> Bool { batch.schemaVersion > knownSchemaVersion }

  /// Refuses a held batch that would take the household past its quota.
  /// - Throws: ``ServerError/heldQuotaCount(held:limit:known:)`` (429) or
  ///   ``ServerError/heldQuotaBytes(held:adding:limit:known:)`` (413).
  public func check(adding batch: IncomingBatch, to held: HeldUsage) throws(ServerError) {
    if held.count + 1 > maxCount { throw .heldQuotaCount(held: held, limit: maxCount, known: knownSchemaVersion) }
    if held.bytes + batch.bytes.count > maxBytes {
      throw .heldQuotaBytes(held: held, adding: batch.bytes.count, limit: maxBytes, known: knownSchemaVersion)
    }
  }

  /// Refuses limits outside ``bytesRange`` and ``countRange``, naming the option.
  public func validate() throws(ServerError) {
    guard Self.bytesRange.contains(maxBytes) else {
      throw .badRequest(
        "held-batch-bytes-invalid",
        "--held-batch-bytes must be from \(Self.bytesRange.lowerBound) to \(Self.bytesRange.upperBound); got \(maxBytes)")
    }
    guard Self.countRange.contains(maxCount) else {
      throw .badRequest(
        "held-batch-count-invalid",
        "--held-batch-count must be from \(Self.countRange.lowerBound) to \(Self.countRange.upperBound); got \(maxCount)")
    }
  }
}

/// How many held batches a household has, and their bytes.
public struct HeldUsage: Sendable, Hashable {
  public var count: Int
  public var bytes: Int

  public static let none = HeldUsage(count: 0, bytes: 0)

  public init(count: Int, bytes: Int) {
    self.count = count
    self.bytes = bytes
  }
}

/// A held batch as `forager-server held-batches` lists it.
public struct HeldBatchEntry: Sendable, Hashable {
  public let sequence: Int64
  /// The device that pushed it.
  public let device: String
  public let batchID: String
  public let replica: String
  public let schemaVersion: Int
  /// Its size as stored, in bytes.
  public let bytes: Int
  public let pushedAt: Date

  public init(sequence: Int64, device: String, batchID: String, replica: String, schemaVersion: Int, bytes: Int, pushedAt: Date) {
    self.sequence = sequence
    self.device = device
    self.batchID = batchID
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.bytes = bytes
    self.pushedAt = pushedAt
  }
}
