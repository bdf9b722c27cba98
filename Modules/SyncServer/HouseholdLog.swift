public import Foundation
public import SyncWire

/// The part of a household's storage a request uses: the token check, the log (append,
/// pages, the newest sequence number) and the device registry. ``SyncService`` and the live
/// credential check take only this; an operator's calls are ``HouseholdAdministration``.
///
/// Every backend makes the promises the routes rely on:
/// - ``append(_:from:deviceSequence:quota:now:)`` runs ``PushRules`` and appends inside one
///   critical section per household, and assigns the household's next sequence number
///   there, so batches commit in sequence order and a pull never skips one that commits
///   late (Docs/SERVER.md, "Ordering"). ``register(_:for:now:)`` decides in the same
///   critical section, so a replica is bound to one device only.
/// - A household's data is reached only through a ``Credential``: no request can name
///   another household.
public protocol HouseholdLog: Sendable {
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
  /// A device's pull: the page as ``page(of:after:limit:maxBytes:)`` reads it, and the
  /// device's pulled position raised to `sequence` when it is higher and within the log (a
  /// pull after `sequence` shows the device holds every batch up to it, which compaction
  /// reads: Docs/SERVER.md, "Compaction"), in one round trip where the backend can.
  func page(of household: Int64, device: Int64, after sequence: Int64, limit: Int, maxBytes: Int) async throws -> LogPage
  /// The device's bound replica and last accepted device sequence.
  func deviceState(of device: Int64) async throws -> DeviceState
  /// Registers (or refreshes) the credential's device; binds its replica on first use.
  /// - Throws: ``ServerError/wrongReplica(device:bound:claimed:)`` when another replica is
  ///   bound, ``ServerError/replicaTaken(_:holder:device:)`` when another device of the
  ///   household is bound to the replica; nothing is written then.
  func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry
  /// The household's device registry, by device name.
  func devices(of household: Int64) async throws -> [DeviceEntry]

  /// Calls `handler` after each change made through this storage object to what a
  /// credential says (a token revoked, a household renamed or deleted, a minimum schema), so
  /// open live streams are checked again at once (``LiveAnnouncer/credentialsChanged()``).
  /// A backend shared by several processes tells its servers through a channel of its own
  /// instead (PostgreSQL: `CredentialWatcher`); the default calls nothing.
  func onCredentialChange(_ handler: @escaping @Sendable () -> Void)
}

/// A page of a household's log, the newest sequence number when it was read, and the log's
/// floor (batches up to it were compacted away).
public struct LogPage: Sendable, Hashable {
  public let entries: [PulledBatch]
  public let latestSequence: Int64
  /// The log's floor: a pull after a place below it asks for batches that are gone.
  public let compactedThrough: Int64

  public init(entries: [PulledBatch], latestSequence: Int64, compactedThrough: Int64 = 0) {
    self.entries = entries
    self.latestSequence = latestSequence
    self.compactedThrough = compactedThrough
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

extension HouseholdLog {
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
