public import Foundation

/// The part of a household's storage an operator uses (``Administration``, `forager-server`'s
/// commands): households, devices, tokens, quotas and held batches, each call naming the
/// household it changes. A request never reaches it; ``HouseholdLog`` is what requests use.
///
/// ``retireBatch(_:of:knownSchemaVersion:force:now:)`` decides in the household's critical
/// section (the one ``HouseholdLog/append(_:from:deviceSequence:quota:now:)`` appends in), so
/// a retirement notice takes the next sequence like any batch. Names are stored as given
/// (values, never SQL).
public protocol HouseholdAdministration: Sendable {
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
  /// Retires a held batch as ``RetireRules`` decide, in the household's critical section:
  /// replaces its bytes, marks it retired and appends the notice, all or nothing.
  /// - Throws: ``ServerError`` from ``RetireRules``; nothing is written then.
  func retireBatch(_ sequence: Int64, of household: HouseholdRecord, knownSchemaVersion: Int, force: Bool, now: Date) async throws
    -> RetiredBatch
  /// Compacts the household's log as `LogCompaction` decides, in the household's critical
  /// section: drops the batches up to the floor, and the snapshots below it, all or nothing
  /// (``HouseholdCompaction``). A batch that arrived at or after `retainedFrom` stays with
  /// every one after it; a device holds compaction back while it has synced and holds a live
  /// token at `now`. With `dryRun` it only says what it would drop, counting a snapshot at
  /// `assumingSnapshotAt` as kept (the one ``LogCompactor`` would make first).
  func compactLog(of household: Int64, retainedFrom: Date, assumingSnapshotAt: Int64?, dryRun: Bool, now: Date) async throws
    -> HouseholdCompaction
}
