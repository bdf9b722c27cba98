public import Foundation
public import SyncWire

/// What `forager-server`'s administrative commands do, over any ``HouseholdStorage``:
/// add a household, issue and revoke device tokens, list devices, list and retire held
/// batches. Names are checked by
/// ``Validation`` and stored as given.
///
/// ```swift
/// let admin = Administration(storage: storage)
/// _ = try await admin.addHousehold("Smith kitchen")
/// let issued = try await admin.issueToken(household: "Smith kitchen", device: "phone")
/// print(issued.token.secret)   // shown once
/// ```
public struct Administration: Sendable {
  public let storage: any HouseholdStorage
  public let configuration: ServerConfiguration

  public init(storage: any HouseholdStorage, configuration: ServerConfiguration = ServerConfiguration()) {
    self.storage = storage
    self.configuration = configuration
  }

  /// Creates a household with a new log identifier.
  /// - Throws: ``ServerError`` for an invalid name or one already taken.
  public func addHousehold(_ name: String) async throws -> HouseholdRecord {
    try Validation.name(name, what: "household name", limit: configuration.maxNameLength)
    guard let record = try await storage.addHousehold(name: name, identifier: UUID().uuidString.lowercased(), now: configuration.clock())
    else { throw ServerError.householdExists(name) }
    return record
  }

  /// A token issued for a device.
  public struct IssuedToken: Sendable {
    public let token: DeviceToken
    public let household: String
    public let device: String
    public let expiresAt: Date
  }

  /// Issues a token for a device of a household (the device is created when new).
  ///
  /// The token is stored only after `deliver` returns: a command that writes the secret to
  /// a file does it there, so a token whose secret could not be written is never live.
  /// A caller whose delivery has a second step (moving the file into place) that fails
  /// afterwards revokes the token (``revokeToken(id:)``).
  ///
  /// ```swift
  /// let issued = try await admin.issueToken(household: "Smith kitchen", device: "phone") { issued in
  ///   try write(issued.token.secret)   // throws: nothing is stored
  /// }
  /// ```
  /// - Parameter lifetime: how long the token works (default 365 days).
  /// - Throws: ``ServerError`` for an unknown household or an invalid device name, or what
  ///   `deliver` throws; nothing is stored then.
  public func issueToken(
    household: String, device: String, lifetime: TimeInterval = 365 * 86_400,
    deliver: @Sendable (IssuedToken) async throws -> Void = { _ in }
  ) async throws -> IssuedToken {
    try Validation.name(device, what: "device name", limit: configuration.maxNameLength)
    guard lifetime > 0 else { throw ServerError.badRequest("lifetime-invalid", "a token's lifetime must be above 0") }
    let record = try await requireHousehold(household)
    let now = configuration.clock()
    let token = DeviceToken.generate()
    let expiresAt = now.addingTimeInterval(lifetime)
    let issued = IssuedToken(token: token, household: household, device: device, expiresAt: expiresAt)
    try await deliver(issued)
    let deviceID = try await storage.device(named: device, in: record.id, now: now)
    try await storage.addToken(
      TokenRecord(id: token.id, hash: token.hash, householdID: record.id, deviceID: deviceID, createdAt: now, expiresAt: expiresAt))
    return issued
  }

  /// Revokes one token by its public id; false when no live token has it.
  public func revokeToken(id: String) async throws -> Bool {
    try await storage.revokeToken(id: id, now: configuration.clock())
  }

  /// Revokes every live token of a device; how many (0 when the device has none live).
  /// - Throws: ``ServerError`` for an unknown household, or a device the household does
  ///   not have (a misspelled name is an error, not "0 revoked").
  public func revokeTokens(household: String, device: String) async throws -> Int {
    let record = try await requireHousehold(household)
    guard try await storage.devices(of: record.id).contains(where: { $0.device == device }) else {
      throw ServerError.noDevice(device, household: household)
    }
    return try await storage.revokeTokens(ofDevice: device, in: record.id, now: configuration.clock())
  }

  /// Refuses pushes of batches below `version` from now on (e.g. 3 once every device of
  /// the household is upgraded), so a device left on an older version is told to update.
  /// - Throws: ``ServerError`` for an unknown household or a version outside 1–10000.
  public func setMinimumSchema(household: String, version: Int) async throws {
    guard (1...10_000).contains(version) else {
      throw ServerError.badRequest("schema-invalid", "a schema version is a whole number from 1 to 10000; got \(version)")
    }
    let record = try await requireHousehold(household)
    try await storage.setMinimumSchema(version, of: record.id)
  }

  /// The household's device registry.
  public func devices(household: String) async throws -> [DeviceEntry] {
    let record = try await requireHousehold(household)
    return try await storage.devices(of: record.id)
  }

  /// The household's held batches: pushed with a schema newer than this server reads
  /// (``ServerConfiguration/knownSchemaVersion``), stored unread, not retired; oldest first.
  /// - Throws: ``ServerError`` for an unknown household.
  public func heldBatches(household: String) async throws -> [HeldBatchEntry] {
    let record = try await requireHousehold(household)
    return try await storage.heldBatches(of: record.id, knownSchemaVersion: configuration.knownSchemaVersion)
  }

  /// Retires a held batch (``RetireRules``): its bytes become an empty batch of the known
  /// schema, and a notice in the household's log tells every device to forget it.
  /// - Parameter force: retire it even though a device other than its pusher registered a
  ///   schema that reads it (and may have applied it).
  /// - Throws: ``ServerError`` for an unknown household, a sequence that is not a held
  ///   batch, or a batch another device may have applied (without `force`); nothing is
  ///   written then.
  public func retireBatch(household: String, sequence: Int64, force: Bool = false) async throws -> RetiredBatch {
    let record = try await requireHousehold(household)
    return try await storage.retireBatch(
      sequence, of: record, knownSchemaVersion: configuration.knownSchemaVersion, force: force, now: configuration.clock())
  }

  /// Every household with its devices, live tokens, batches, bytes and last push, by name.
  public func households() async throws -> [HouseholdSummary] {
    try await storage.householdSummaries(now: configuration.clock())
  }

  /// Renames a household; its devices and tokens go on working under the new name.
  /// - Throws: ``ServerError`` for an unknown household, an invalid name or one taken.
  public func renameHousehold(_ name: String, to newName: String) async throws {
    try Validation.name(newName, what: "household name", limit: configuration.maxNameLength)
    let record = try await requireHousehold(name)
    guard try await storage.renameHousehold(record.id, to: newName) else { throw ServerError.householdExists(newName) }
  }

  /// Deletes a household: its log, devices and tokens, in one transaction; its tokens are
  /// refused from then on, on every server.
  /// - Throws: ``ServerError`` for an unknown household; nothing is deleted then.
  public func deleteHousehold(_ name: String) async throws -> DeletedHousehold {
    let record = try await requireHousehold(name)
    return try await storage.deleteHousehold(record.id)
  }

  func requireHousehold(_ name: String) async throws -> HouseholdRecord {
    guard let record = try await storage.household(named: name) else { throw ServerError.noHousehold(name) }
    return record
  }
}
