public import Foundation

// The JSON bodies of protocol v1. Dates are ISO 8601 strings (`WireCoding`); batch bytes
// in a pull page are base64 (Foundation's default for `Data`).

/// The answer to a push.
public struct PushReceipt: Codable, Sendable, Hashable {
  /// The batch's place in the household's log.
  public let sequence: Int64
  /// The batch's place in its device's own sequence.
  public let deviceSequence: Int64
  /// False when the batch was already stored (a retry): nothing was appended.
  public let stored: Bool

  public init(sequence: Int64, deviceSequence: Int64, stored: Bool) {
    self.sequence = sequence
    self.deviceSequence = deviceSequence
    self.stored = stored
  }
}

/// One batch of a pull page, in the binary form its device pushed, byte for byte.
public struct PulledBatch: Codable, Sendable, Hashable {
  public let sequence: Int64
  public let batch: Data

  public init(sequence: Int64, batch: Data) {
    self.sequence = sequence
    self.batch = batch
  }
}

/// A page of a household's log.
public struct PullPage: Codable, Sendable, Hashable {
  /// Oldest first, each with a sequence above the request's cursor.
  public let entries: [PulledBatch]
  /// Where the next page starts: the request's cursor when the page is empty.
  public let cursor: String
  /// The newest sequence in the log when the page was read.
  public let latestSequence: Int64
  /// True when the page stopped at the server's byte budget for a page before the number
  /// of batches asked for, with more after it: pull again from `cursor`.
  public let endedAtByteLimit: Bool

  public init(entries: [PulledBatch], cursor: String, latestSequence: Int64, endedAtByteLimit: Bool = false) {
    self.entries = entries
    self.cursor = cursor
    self.latestSequence = latestSequence
    self.endedAtByteLimit = endedAtByteLimit
  }

  private enum CodingKeys: String, CodingKey { case entries, cursor, latestSequence, endedAtByteLimit }

  /// Reads a page; one without `endedAtByteLimit` (an earlier server) did not end early.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    entries = try container.decode([PulledBatch].self, forKey: .entries)
    cursor = try container.decode(String.self, forKey: .cursor)
    latestSequence = try container.decode(Int64.self, forKey: .latestSequence)
    endedAtByteLimit = try container.decodeIfPresent(Bool.self, forKey: .endedAtByteLimit) ?? false
  }
}

/// Who a token is, and where its device and household stand.
public struct SessionInfo: Codable, Sendable, Hashable {
  /// The household's name.
  public let household: String
  /// A value that identifies the household's log on any server instance (a UUID).
  public let cloudIdentifier: String
  /// The device's name, as the token was issued for it.
  public let device: String
  /// The replica the device is bound to (by its first push or registration), if any.
  public let replicaID: String?
  /// The device's last accepted batch sequence (0: none yet).
  public let deviceSequence: Int64
  /// The newest sequence in the household's log.
  public let latestSequence: Int64
  /// When the token stops working.
  public let expiresAt: Date

  public init(
    household: String, cloudIdentifier: String, device: String, replicaID: String?, deviceSequence: Int64,
    latestSequence: Int64, expiresAt: Date
  ) {
    self.household = household
    self.cloudIdentifier = cloudIdentifier
    self.device = device
    self.replicaID = replicaID
    self.deviceSequence = deviceSequence
    self.latestSequence = latestSequence
    self.expiresAt = expiresAt
  }
}

/// The body of `PUT /v1/devices/self`.
public struct DeviceRegistration: Codable, Sendable, Hashable {
  public let replicaID: String
  /// The name the device's user gave it (shown in `sync status`).
  public let name: String
  public let schemaVersion: Int

  public init(replicaID: String, name: String, schemaVersion: Int) {
    self.replicaID = replicaID
    self.name = name
    self.schemaVersion = schemaVersion
  }
}

/// A device in the household's registry.
public struct DeviceEntry: Codable, Sendable, Hashable {
  /// The name the device's token was issued for.
  public let device: String
  /// The replica bound to the device; nil before its first push or registration.
  public let replicaID: String?
  /// The name the device registered with (its user's name for it); the token's name
  /// before it registered.
  public let name: String
  /// The schema version it registered with (0 before it registered).
  public let schemaVersion: Int
  /// The server's time of its last registration (nil before it registered).
  public let lastSeen: Date?

  public init(device: String, replicaID: String?, name: String, schemaVersion: Int, lastSeen: Date?) {
    self.device = device
    self.replicaID = replicaID
    self.name = name
    self.schemaVersion = schemaVersion
    self.lastSeen = lastSeen
  }
}

/// The body of `GET /v1/devices`.
public struct DeviceList: Codable, Sendable, Hashable {
  public let devices: [DeviceEntry]

  public init(devices: [DeviceEntry]) { self.devices = devices }
}

/// Every refusal's body: a stable code for programs and a message for people.
public struct WireError: Codable, Sendable, Hashable {
  public struct Detail: Codable, Sendable, Hashable {
    /// A stable, kebab-case reason (`device-sequence-gap`, `token-expired`, …).
    public let code: String
    /// What was wrong and what to do, for the person reading a log or a prompt.
    public let message: String
    /// For a refused device sequence: the number the server expects next.
    public let expectedDeviceSequence: Int64?
    /// For `cursor-ahead`: the sequence the household's log really ends at, from which
    /// the device pulls again.
    public let latestSequence: Int64?
    /// For `log-compacted`: the first batch the household's log still keeps; the device
    /// starts again from the snapshot, whose position is at least the one before it.
    public let firstKeptSequence: Int64?

    public init(
      code: String, message: String, expectedDeviceSequence: Int64? = nil, latestSequence: Int64? = nil, firstKeptSequence: Int64? = nil
    ) {
      self.code = code
      self.message = message
      self.expectedDeviceSequence = expectedDeviceSequence
      self.latestSequence = latestSequence
      self.firstKeptSequence = firstKeptSequence
    }
  }

  public let error: Detail

  public init(_ detail: Detail) { self.error = detail }
}

/// The JSON coders both sides use (ISO 8601 dates, sorted keys).
public enum WireCoding {
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
