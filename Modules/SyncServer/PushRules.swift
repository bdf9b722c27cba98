public import SyncWire

/// What a push may do, decided from what the household's log and the device already hold.
/// Every storage backend calls it inside its per-household critical section, so the rules
/// live once.
///
/// - A batch id already in the household's log, pushed by the same device, is a retry:
///   it is acknowledged with its stored sequence and nothing is appended. Pushed by
///   another device, it is refused (`batch-id-taken`).
/// - A new batch must carry the device's next device sequence (last accepted + 1): a
///   number already used is refused (`device-sequence-reused`), a number past the next
///   (`device-sequence-gap`); both name the number expected.
/// - The batch's replica must be the device's bound replica (the first push or
///   registration binds it): a device pushes only as itself (`wrong-replica`).
public enum PushRules {
  /// A batch already in the log with the pushed id.
  public struct Existing: Sendable, Hashable {
    public let sequence: Int64
    public let deviceID: Int64
    public let deviceSequence: Int64

    public init(sequence: Int64, deviceID: Int64, deviceSequence: Int64) {
      self.sequence = sequence
      self.deviceID = deviceID
      self.deviceSequence = deviceSequence
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
    _ batch: IncomingBatch, deviceSequence: Int64, credential: Credential, device: DeviceState, existing: Existing?
  ) throws(ServerError) -> Decision {
    if let existing {
      guard existing.deviceID == credential.deviceID else { throw .batchIDTaken(batch.id) }
      return .alreadyStored(PushReceipt(sequence: existing.sequence, deviceSequence: existing.deviceSequence, stored: false))
    }
    try checkReplica(bound: device.replicaID, claimed: batch.replica, device: credential.device)
    let expected = device.lastDeviceSequence + 1
    if deviceSequence < expected {
      throw .deviceSequenceReused(device: credential.device, got: deviceSequence, expected: expected)
    }
    if deviceSequence > expected {
      throw .deviceSequenceGap(device: credential.device, got: deviceSequence, expected: expected)
    }
    return .append(deviceSequence: deviceSequence, bindsReplica: device.replicaID == nil)
  }

  /// Refuses a replica other than the one bound to the device.
  public static func checkReplica(bound: String?, claimed: String, device: String) throws(ServerError) {
    if let bound, bound != claimed { throw .wrongReplica(device: device, bound: bound, claimed: claimed) }
  }
}
