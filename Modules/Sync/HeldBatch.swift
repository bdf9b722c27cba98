public import Foundation

/// A batch a device keeps without applying it: written by a newer schema than the
/// device's (``SyncEngine/schemaVersion``), or in a form this version cannot read at all
/// (a kind it does not know). It is kept byte for byte and applied by the sync after the
/// device's upgrade, when that version can read it; until then `sync status` names it.
public struct HeldBatch: Sendable, Hashable, Codable {
  /// Its place in the cloud's log.
  public let sequence: Int64
  /// The batch id.
  public let id: String
  /// The replica that wrote it.
  public let replica: String
  /// The schema version it was written with.
  public let schemaVersion: Int
  /// Why it is held, for the user.
  public let reason: String
  /// The batch in ``ChangeBatchCoding``'s binary form, as the cloud served it.
  public let bytes: Data

  /// A held batch from its parts.
  public init(sequence: Int64, id: String, replica: String, schemaVersion: Int, reason: String, bytes: Data) {
    self.sequence = sequence
    self.id = id
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.reason = reason
    self.bytes = bytes
  }
}

extension ChangeBatchCoding {
  /// The newest schema version this version of Forager writes and reads.
  /// 4 since weekly lists have a key (`listKey`): a device on 3 holds such batches
  /// instead of setting aside every list change for its unknown field. 5 since stores
  /// (a kind), a list's store, pantry amounts and planned servings: a device on 4 holds
  /// such batches instead of setting aside changes it cannot read. 6 since a recipe line's
  /// ingredient group and a list item's plan amount: a device on 5 holds such batches.
  public static let schemaVersion = 6

  /// What a batch says about itself before its changes, readable whatever its schema.
  public struct Header: Sendable, Hashable {
    /// The batch id.
    public let id: String
    /// The replica that wrote it.
    public let replica: String
    /// The schema version it was written with.
    public let schemaVersion: Int
  }

  /// Reads a batch's header (id, replica, schema version) without its changes.
  /// - Throws: ``DecodingError`` when the bytes do not start with a batch in the binary form.
  public static func header(_ data: Data) throws -> Header {
    guard data.starts(with: magic) else { throw DecodingError(reason: data.isEmpty ? "no bytes" : "unknown format") }
    return try data.withUnsafeBytes { buffer in
      var reader = Reader(buffer: buffer, offset: magic.count)
      let id = try reader.string()
      let replica = try reader.string()
      guard let version = Int(exactly: try reader.signed()) else { throw DecodingError(reason: "schema version out of range") }
      return Header(id: id, replica: replica, schemaVersion: version)
    }
  }

  /// The log entry for stored bytes: the batch when this version reads it; a held batch
  /// when it comes from a newer schema this version cannot read; a damaged entry (which the
  /// device sets aside and passes) for bytes that are not a readable batch of a schema this
  /// version knows. Never throws: one bad entry in a log must not stop every device.
  public static func entry(sequence: Int64, bytes: Data, location: String) -> CloudEntry {
    do {
      return CloudEntry(sequence: sequence, batch: try decode(bytes))
    } catch {
      if let header = try? header(bytes), header.schemaVersion > schemaVersion {
        return CloudEntry(
          held: HeldBatch(
            sequence: sequence, id: header.id, replica: header.replica, schemaVersion: header.schemaVersion,
            reason: "schema v\(header.schemaVersion) (this version reads up to v\(schemaVersion)): \(error)", bytes: bytes))
      }
      return CloudEntry(sequence: sequence, damage: "batch \(sequence) of \(location) cannot be read: \(error)")
    }
  }
}

extension ChangeBatch {
  /// The id of the notice an operator's `forager-server retire-batch` appends to a
  /// household's log when it retires held batch `sequence` (its bytes are replaced by an
  /// empty batch): a device that holds that batch forgets it. Only the server writes such
  /// a batch: its replica is empty, which no device's push may be.
  public static func retirementID(of sequence: Int64) -> String { retirementPrefix + String(sequence) }
  private static let retirementPrefix = "retired:"

  /// The sequence this batch retires, when it is a retirement notice.
  public var retiredSequence: Int64? {
    guard replica.isEmpty, changes.isEmpty, id.hasPrefix(Self.retirementPrefix) else { return nil }
    return Int64(id.dropFirst(Self.retirementPrefix.count))
  }
}
