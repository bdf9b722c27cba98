public import SyncWire

/// What a push may do, decided from what the household's log and the device already hold.
/// Every storage backend calls it inside its per-household critical section, so the rules
/// live once (Docs/SERVER.md, "Push").
///
/// - A batch's id starts with its replica and `:` (`<replica>:<n>-<n>`, `<replica>:edges-…`):
///   a device names only its own batches, so none can take another's next id
///   (`batch-id-invalid`).
/// - A batch id this device already pushed is a retry: it is acknowledged with its stored
///   sequence and nothing is appended. Batch ids are unique per device; another device's
///   batch with the same id (in a log written before ids were checked) does not matter.
/// - The batch's replica must be the device's bound replica (the first push or
///   registration binds it): a device pushes only as itself (`wrong-replica`). A replica
///   another device of the household is bound to is never bound again (`replica-taken`).
/// - A new batch must carry the device's next device sequence (last accepted + 1): a
///   number already used is refused (`device-sequence-reused`), a number past the next
///   (`device-sequence-gap`); both name the number expected.
/// - A batch of a schema newer than the server reads is held unread, within the
///   household's ``HeldBatchQuota`` (`held-quota-count`, `held-quota-bytes`).
/// - A new batch must fit the household's ``HouseholdQuota`` (`household-quota-stored`,
///   `household-quota-daily`); a retry of a stored batch is never refused by it.
public enum PushRules {
  /// This device's batch already in the log with the pushed id.
  public struct Existing: Sendable, Hashable {
    public let sequence: Int64
    public let deviceSequence: Int64

    public init(sequence: Int64, deviceSequence: Int64) {
      self.sequence = sequence
      self.deviceSequence = deviceSequence
    }
  }

  /// What the storage found in the household, under its lock, for one push.
  public struct Context: Sendable, Hashable {
    /// The pushing device's bound replica and last accepted device sequence.
    public var device: DeviceState
    /// The batch with the pushed id that this device pushed before, if any.
    public var existing: Existing?
    /// The name of another device of the household bound to the batch's replica, if any.
    public var replicaHolder: String?
    /// The household's held batches; a backend may leave it empty for a batch the quota
    /// does not hold (``HeldBatchQuota/holds(_:)``).
    public var held: HeldUsage
    /// What the household holds and pushed today; nil: not checked.
    public var usage: HouseholdUsage?

    public init(
      device: DeviceState, existing: Existing? = nil, replicaHolder: String? = nil, held: HeldUsage = .none, usage: HouseholdUsage? = nil
    ) {
      self.device = device
      self.existing = existing
      self.replicaHolder = replicaHolder
      self.held = held
      self.usage = usage
    }
  }

  /// What to do with a push.
  public enum Decision: Sendable, Hashable {
    /// Append it with this device sequence (binding the replica when `bindsReplica`).
    case append(deviceSequence: Int64, bindsReplica: Bool)
    /// Already stored: answer with this receipt, write nothing.
    case alreadyStored(PushReceipt)
  }

  /// Decides a push.
  /// - Throws: ``ServerError`` naming what was refused and what the server expects.
  public static func decide(
    _ batch: IncomingBatch, deviceSequence: Int64, credential: Credential, context: Context, quota: HeldBatchQuota
  ) throws(ServerError) -> Decision {
    try checkBatchID(batch)
    if let existing = context.existing {
      return .alreadyStored(PushReceipt(sequence: existing.sequence, deviceSequence: existing.deviceSequence, stored: false))
    }
    try checkReplica(bound: context.device.replicaID, claimed: batch.replica, holder: context.replicaHolder, device: credential.device)
    let expected = context.device.lastDeviceSequence + 1
    if deviceSequence < expected {
      throw .deviceSequenceReused(device: credential.device, got: deviceSequence, expected: expected)
    }
    if deviceSequence > expected {
      throw .deviceSequenceGap(device: credential.device, got: deviceSequence, expected: expected)
    }
    if quota.holds(batch) { try quota.check(adding: batch, to: context.held) }
    if let usage = context.usage { try usage.check(adding: batch.bytes.count, defaults: quota.household, household: credential.household) }
    return .append(deviceSequence: deviceSequence, bindsReplica: context.device.replicaID == nil)
  }

  /// Refuses a batch whose id does not start with its own replica and `:` (compared byte
  /// for byte, as PostgreSQL's `starts_with` in `forager_append_next` does).
  public static func checkBatchID(_ batch: IncomingBatch) throws(ServerError) {
    guard batch.id.utf8.starts(with: (batch.replica + ":").utf8) else {
      throw .batchIDInvalid(batch.id, replica: batch.replica)
    }
  }

  /// Refuses a replica other than the one bound to the device, and one bound to another
  /// device of the household (`holder`).
  public static func checkReplica(bound: String?, claimed: String, holder: String?, device: String) throws(ServerError) {
    if let bound, bound != claimed { throw .wrongReplica(device: device, bound: bound, claimed: claimed) }
    if let holder { throw .replicaTaken(claimed, holder: holder, device: device) }
  }
}
