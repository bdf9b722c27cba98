public import Foundation
public import SyncWire

/// Where the server keeps households, devices, tokens and each household's log of batches.
///
/// Backends: ``MemoryHouseholdStorage`` (one process: route and client tests) and
/// `PostgresHouseholdStorage` (module `SyncPostgres`). Every backend makes the same
/// promises, which the routes rely on:
/// - ``append(_:from:deviceSequence:quota:now:)`` runs ``PushRules`` and appends inside one
///   critical section per household, and assigns the household's next sequence number
///   there, so batches commit in sequence order and a pull never skips one that commits
///   late (Docs/SERVER.md, "Ordering"). ``register(_:for:now:)`` and
///   ``retireBatch(_:of:knownSchemaVersion:force:now:)`` decide in the same critical
///   section, so a replica is bound to one device only and a retirement notice takes the
///   next sequence like any batch.
/// - A household's data is reached only through a ``Credential`` or an administrative
///   call that names the household: no request can name another household.
/// - Names are stored as given (values, never SQL).
public protocol HouseholdStorage: Sendable {
  // MARK: Requests

  /// Returns when the storage answers (a database round trip); throws when it cannot.
  /// `/v1/ready` and the ``StorageGate`` call it with a short deadline.
  func checkReachable() async throws
  /// The credential of a token, by the SHA-256 of its secret; nil when no token has it.
  func credential(forTokenHash hash: Data) async throws -> Credential?
  /// Appends a batch to the credential's household log unless ``PushRules`` refuse it
  /// (a batch the quota holds is counted against the household's held batches).
  /// - Throws: ``ServerError`` from ``PushRules``; nothing is written then.
  func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt
  /// Up to `limit` batches of the household after `sequence`, oldest first.
  func batches(of household: Int64, after sequence: Int64, limit: Int) async throws -> [PulledBatch]
  /// The household's newest sequence number (0: empty log).
  func latestSequence(of household: Int64) async throws -> Int64
  /// A pull's page: up to `limit` batches after `sequence`, no more of them than fit in
  /// `maxBytes` (but always the first, however large), and the newest sequence number, read
  /// together (a backend may answer both in one query). A backend reads no batch past the
  /// budget's end.
  func page(of household: Int64, after sequence: Int64, limit: Int, maxBytes: Int) async throws -> LogPage
  /// The device's bound replica and last accepted device sequence.
  func deviceState(of device: Int64) async throws -> DeviceState
  /// Registers (or refreshes) the credential's device; binds its replica on first use.
  /// - Throws: ``ServerError/wrongReplica(device:bound:claimed:)`` when another replica is
  ///   bound, ``ServerError/replicaTaken(_:holder:device:)`` when another device of the
  ///   household is bound to the replica; nothing is written then.
  func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry
  /// The household's device registry, by device name.
  func devices(of household: Int64) async throws -> [DeviceEntry]

  // MARK: Administration

  /// Every household with what it holds, by name; a live token is neither revoked nor
  /// expired at `now`.
  func householdSummaries(now: Date) async throws -> [HouseholdSummary]
  /// Renames a household; false when another household has the name.
  func renameHousehold(_ household: Int64, to name: String) async throws -> Bool
  /// Deletes a household with its log, devices and tokens, all or nothing; its tokens are
  /// refused from the commit on, on every server.
  func deleteHousehold(_ household: Int64) async throws -> DeletedHousehold
  /// Creates a household; nil when one with this name exists.
  func addHousehold(name: String, identifier: String, now: Date) async throws -> HouseholdRecord?
  /// The household with this name, if any.
  func household(named name: String) async throws -> HouseholdRecord?
  /// The device of this name in the household, created when missing.
  func device(named name: String, in household: Int64, now: Date) async throws -> Int64
  /// Stores a token (its hash only).
  func addToken(_ token: TokenRecord) async throws
  /// Revokes one token by its public id; false when there is none (or it was revoked).
  func revokeToken(id: String, now: Date) async throws -> Bool
  /// Revokes every live token of a device; how many it revoked.
  func revokeTokens(ofDevice name: String, in household: Int64, now: Date) async throws -> Int
  /// Sets the oldest schema version the household takes pushes from.
  func setMinimumSchema(_ version: Int, of household: Int64) async throws
  /// The household's held batches (schema above `knownSchemaVersion`, not retired), oldest first.
  func heldBatches(of household: Int64, knownSchemaVersion: Int) async throws -> [HeldBatchEntry]
  /// What the household holds, pushed on `now`'s UTC day, and its own quota setting.
  func householdUsage(of household: Int64, now: Date) async throws -> HouseholdUsage
  /// Sets the household's own quota (nil in a field: the server's default).
  func setHouseholdQuota(_ setting: HouseholdQuotaSetting, of household: Int64) async throws
  /// Calls `handler` after each change made through this storage object to what a
  /// credential says (a token revoked, a household renamed or deleted, a minimum schema), so
  /// open live streams are checked again at once (``LiveAnnouncer/credentialsChanged()``).
  /// A backend shared by several processes tells its servers through a channel of its own
  /// instead (PostgreSQL: `CredentialWatcher`); the default calls nothing.
  func onCredentialChange(_ handler: @escaping @Sendable () -> Void)
  /// Retires a held batch as ``RetireRules`` decide, in the household's critical section:
  /// replaces its bytes, marks it retired and appends the notice, all or nothing.
  /// - Throws: ``ServerError`` from ``RetireRules``; nothing is written then.
  func retireBatch(_ sequence: Int64, of household: HouseholdRecord, knownSchemaVersion: Int, force: Bool, now: Date) async throws
    -> RetiredBatch
}

/// A page of a household's log and the newest sequence number when it was read.
public struct LogPage: Sendable, Hashable {
  public let entries: [PulledBatch]
  public let latestSequence: Int64

  public init(entries: [PulledBatch], latestSequence: Int64) {
    self.entries = entries
    self.latestSequence = latestSequence
  }

  /// The first entries whose bytes add up to at most `maxBytes`, and always the first:
  /// the rule every backend's page follows.
  public static func fitting(_ entries: some Collection<PulledBatch>, maxBytes: Int) -> [PulledBatch] {
    var total = 0
    var kept: [PulledBatch] = []
    for entry in entries {
      total += entry.batch.count
      guard kept.isEmpty || total <= maxBytes else { break }
      kept.append(entry)
    }
    return kept
  }
}

extension HouseholdStorage {
  /// A storage in the server's own memory is always reachable.
  public func checkReachable() async throws {}

  /// Changes are heard another way (or never made through this object).
  public func onCredentialChange(_ handler: @escaping @Sendable () -> Void) {}

  /// Appends under the default configuration's ``HeldBatchQuota`` (for tests and tools).
  public func append(_ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, now: Date) async throws -> PushReceipt {
    try await append(batch, from: credential, deviceSequence: deviceSequence, quota: HeldBatchQuota(), now: now)
  }

  /// The page from ``batches(of:after:limit:)`` and ``latestSequence(of:)``, one after the
  /// other, cut at `maxBytes` (``LogPage/fitting(_:maxBytes:)``).
  public func page(of household: Int64, after sequence: Int64, limit: Int, maxBytes: Int) async throws -> LogPage {
    let entries = try await batches(of: household, after: sequence, limit: limit)
    return LogPage(entries: LogPage.fitting(entries, maxBytes: maxBytes), latestSequence: try await latestSequence(of: household))
  }

  /// A page without a byte budget.
  public func page(of household: Int64, after sequence: Int64, limit: Int) async throws -> LogPage {
    try await page(of: household, after: sequence, limit: limit, maxBytes: .max)
  }
}

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
