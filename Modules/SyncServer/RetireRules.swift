public import Foundation
import Sync
public import SyncWire

/// Whether a held batch may be retired, and what retiring writes. Every storage backend
/// calls it inside the household's critical section (as it calls ``PushRules``), so the
/// rule lives once (Docs/SERVER.md, "Retiring a held batch").
///
/// Retiring batch N of a household:
/// - replaces its bytes with an empty batch of the server's known schema with the same id
///   and replica, so a device that pulls it from now on applies nothing and holds nothing;
/// - marks it retired: it is no longer listed as held nor counted by the ``HeldBatchQuota``;
/// - appends a notice with the household's next sequence, attributed to no device: a batch
///   of the known schema with id `retired:N`, an empty replica and no changes. A device that
///   holds batch N unread forgets it when it pulls the notice.
///
/// It keeps convergence because no device has applied the batch: no device of the
/// household but its pusher registered a schema that reads it. When one did (it may have
/// applied the batch), retiring would leave it with changes the others never get, so it
/// is refused unless forced.
///
/// ```swift
/// let retirement = try RetireRules.decide(
///   sequence: 7, household: "Smith", stored: stored, devices: registry, knownSchemaVersion: 3, force: false)
/// ```
public enum RetireRules {
  /// A batch of the log as the storage found it, with when it was retired (nil: never).
  public struct Stored: Sendable, Hashable {
    public let batch: HeldBatchEntry
    public let retiredAt: Date?

    public init(batch: HeldBatchEntry, retiredAt: Date?) {
      self.batch = batch
      self.retiredAt = retiredAt
    }
  }

  /// What retiring writes.
  public struct Retirement: Sendable, Hashable {
    /// The batch retired, as it was held.
    public let batch: HeldBatchEntry
    /// The bytes that replace the batch's: an empty batch of the known schema, same id and replica.
    public let replacement: Data
    /// The notice appended to the log (``noticeID(of:)``).
    public let notice: Data
  }

  /// The id of the notice that retires batch `sequence`: `retired:<sequence>`, the id
  /// devices recognise (`ChangeBatch.retirementID(of:)`).
  public static func noticeID(of sequence: Int64) -> String { ChangeBatch.retirementID(of: sequence) }

  /// Decides a retirement.
  /// - Parameters:
  ///   - stored: the batch at `sequence` of the household (nil: there is none, or it is a
  ///     notice the server appended).
  ///   - devices: the household's registry (a device's registered schema version).
  ///   - force: retire even though a device other than the pusher may have applied it.
  /// - Throws: ``ServerError/batchNotHeld(_:household:reason:)`` when it is not a held
  ///   batch; ``ServerError/retireNeedsForce(_:schemaVersion:devices:)`` when a device
  ///   other than the pusher registered a schema that reads it and `force` is false.
  public static func decide(
    sequence: Int64, household: String, stored: Stored?, devices: [DeviceEntry], knownSchemaVersion: Int, force: Bool
  ) throws(ServerError) -> Retirement {
    guard let stored else {
      throw .batchNotHeld(sequence, household: household, reason: "there is no batch a device pushed with that sequence")
    }
    let batch = stored.batch
    if let retiredAt = stored.retiredAt {
      throw .batchNotHeld(sequence, household: household, reason: "it was retired at \(ServerError.stamp(retiredAt))")
    }
    guard batch.schemaVersion > knownSchemaVersion else {
      throw .batchNotHeld(
        sequence, household: household,
        reason: "it is schema v\(batch.schemaVersion), which this server reads (up to v\(knownSchemaVersion))")
    }
    let readers = devices.filter { $0.device != batch.device && $0.schemaVersion >= batch.schemaVersion }.map(\.device).sorted()
    if !readers.isEmpty && !force { throw .retireNeedsForce(sequence, schemaVersion: batch.schemaVersion, devices: readers) }
    let replacement = ChangeBatchCoding.encode(
      ChangeBatch(id: batch.batchID, replica: batch.replica, schemaVersion: knownSchemaVersion, changes: []))
    let notice = ChangeBatchCoding.encode(
      ChangeBatch(id: noticeID(of: sequence), replica: "", schemaVersion: knownSchemaVersion, changes: []))
    return Retirement(batch: batch, replacement: replacement, notice: notice)
  }
}

/// A batch an operator retired, and the notice that tells the devices.
public struct RetiredBatch: Sendable, Hashable {
  /// The batch as it was held.
  public let batch: HeldBatchEntry
  /// The sequence of the notice `retired:<sequence>` in the household's log.
  public let noticeSequence: Int64

  public init(batch: HeldBatchEntry, noticeSequence: Int64) {
    self.batch = batch
    self.noticeSequence = noticeSequence
  }
}
