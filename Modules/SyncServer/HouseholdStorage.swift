public import Foundation

/// Where the server keeps households, devices, tokens and each household's log of batches:
/// what a request uses (``HouseholdLog``) and what an operator uses
/// (``HouseholdAdministration``), which every backend implements both of.
///
/// Backends: `MemoryHouseholdStorage` (module `SyncServerMemory`: one process, route and client tests) and
/// `PostgresHouseholdStorage` (module `SyncPostgres`).
public typealias HouseholdStorage = HouseholdLog & HouseholdAdministration

/// Who a request is, as its token says: one household and one device.
public struct Credential: Sendable, Hashable {
  public let tokenID: String
  public let householdID: Int64
  public let household: String
  /// The household's log identifier (a UUID), the same on every server instance.
  public let cloudIdentifier: String
  public let deviceID: Int64
  public let device: String
  public let expiresAt: Date
  public let revokedAt: Date?
  /// The oldest schema the household takes pushes from (``Administration/setMinimumSchema(household:version:)``).
  public let minimumSchema: Int

  public init(
    tokenID: String, householdID: Int64, household: String, cloudIdentifier: String, deviceID: Int64, device: String,
    expiresAt: Date, revokedAt: Date?, minimumSchema: Int = 1
  ) {
    self.minimumSchema = minimumSchema
    self.tokenID = tokenID
    self.householdID = householdID
    self.household = household
    self.cloudIdentifier = cloudIdentifier
    self.deviceID = deviceID
    self.device = device
    self.expiresAt = expiresAt
    self.revokedAt = revokedAt
  }
}

/// A pushed batch as the server reads it: the fields of its header, and its bytes, which
/// are stored and served unchanged.
public struct IncomingBatch: Sendable, Hashable {
  public let id: String
  public let replica: String
  public let schemaVersion: Int
  public let bytes: Data

  public init(id: String, replica: String, schemaVersion: Int, bytes: Data) {
    self.id = id
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.bytes = bytes
  }
}

/// A device's place in the push protocol.
public struct DeviceState: Sendable, Hashable {
  /// The replica bound to the device by its first push or registration.
  public var replicaID: String?
  /// The device sequence of its last accepted batch (0: none).
  public var lastDeviceSequence: Int64

  public init(replicaID: String?, lastDeviceSequence: Int64) {
    self.replicaID = replicaID
    self.lastDeviceSequence = lastDeviceSequence
  }
}

/// A household as administration sees it.
public struct HouseholdRecord: Sendable, Hashable {
  public let id: Int64
  public let name: String
  public let identifier: String

  public init(id: Int64, name: String, identifier: String) {
    self.id = id
    self.name = name
    self.identifier = identifier
  }
}

/// A token as stored: its public id and the SHA-256 of its secret, never the secret.
public struct TokenRecord: Sendable, Hashable {
  public let id: String
  public let hash: Data
  public let householdID: Int64
  public let deviceID: Int64
  public let createdAt: Date
  public let expiresAt: Date

  public init(id: String, hash: Data, householdID: Int64, deviceID: Int64, createdAt: Date, expiresAt: Date) {
    self.id = id
    self.hash = hash
    self.householdID = householdID
    self.deviceID = deviceID
    self.createdAt = createdAt
    self.expiresAt = expiresAt
  }
}

/// A household as `forager-server households` lists it.
public struct HouseholdSummary: Sendable, Hashable {
  public let name: String
  /// The household log's identifier (a UUID).
  public let identifier: String
  public let devices: Int
  /// Tokens neither revoked nor expired.
  public let liveTokens: Int
  /// Batches in its log (retirement notices included).
  public let batches: Int
  /// Bytes of those batches, as stored.
  public let bytes: Int64
  /// When its newest batch was pushed; nil for an empty log.
  public let lastPush: Date?

  public init(name: String, identifier: String, devices: Int, liveTokens: Int, batches: Int, bytes: Int64, lastPush: Date?) {
    self.name = name
    self.identifier = identifier
    self.devices = devices
    self.liveTokens = liveTokens
    self.batches = batches
    self.bytes = bytes
    self.lastPush = lastPush
  }
}

/// What deleting a household removed.
public struct DeletedHousehold: Sendable, Hashable {
  public let devices: Int
  public let tokens: Int
  public let batches: Int

  public init(devices: Int, tokens: Int, batches: Int) {
    self.devices = devices
    self.tokens = tokens
    self.batches = batches
  }
}
