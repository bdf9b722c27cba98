public import Foundation
import HTTPTypes
import Sync
import SyncWire

extension Administration {
  /// The name of the device a household restore writes as: every device's `history` and
  /// `trash` show it beside the changes it made.
  public static let restoreDeviceName = "operator restore"

  /// What ``restoreHousehold(_:before:apply:)`` found and did.
  public struct HouseholdRestore: Sendable {
    /// What the restore changes, one line per count (`PointInTime.Plan.summary`).
    public let summary: [String]
    /// How many registers it writes: 0 when the household already shows as at the time.
    public let writeCount: Int
    /// The log's sequence of the restore's batch; nil for a dry run or nothing to restore.
    public let sequence: Int64?
    /// Batches of the log this server does not read (a newer schema, or damaged): their
    /// records are restored as the batches it reads show them.
    public let unreadBatches: Int
  }

  /// Restores a household to how its log showed it before `time` (every register stamped
  /// before it, on the household's clock): computes the same plan a device computes
  /// (``PointInTime/restore(_:before:replica:schemaVersion:now:)``) and, when `apply`,
  /// appends it as one batch of the device ``restoreDeviceName`` (registered with a replica
  /// of its own on first use), which every device pulls like any batch.
  /// - Throws: ``ServerError``: no such household, a time the restore refuses (in the
  ///   future, before the household's first record, an empty log: `restore-refused`), or
  ///   the push rules' refusal; nothing is written then.
  public func restoreHousehold(_ name: String, before time: Date, apply: Bool) async throws -> HouseholdRestore {
    do {
      return try await restore(name, before: time, apply: apply)
    } catch let error as PointInTimeError {
      throw ServerError(.unprocessableContent, code: "restore-refused", message: "nothing restored: \(error.description)")
    }
  }

  /// The states of a compacted log's dropped batches: the pages of its oldest kept snapshot
  /// (every kept snapshot is at or past the floor, and the batches between the two are
  /// still in the log, which the join takes twice harmlessly); none for a log never
  /// compacted. A state at `time` is exact only when every register of that snapshot was
  /// stamped before it, so an earlier time is refused (`restore-refused`).
  private func compactedPart(of household: Int64, before time: Date) async throws -> [ChangeBatch] {
    let latest = try await storage.latestSequence(of: household)
    let first = try await storage.batches(of: household, after: 0, limit: 1).first?.sequence ?? latest + 1
    guard latest > 0, first > 1 else { return [] }
    guard let snapshots = storage as? any SnapshotStore, let oldest = try await snapshots.snapshots(of: household).first else {
      throw ServerError(
        .unprocessableContent, code: "restore-refused",
        message: "nothing restored: the log before sequence \(first) was compacted and no snapshot holds it")
    }
    var pages: [ChangeBatch] = []
    for index in 0..<oldest.pageCount {
      guard let bytes = try await snapshots.snapshotPage(of: household, position: oldest.position, page: index),
        let page = try? ChangeBatchCoding.decode(bytes)
      else {
        throw ServerError.internalFailure(
          "snapshot-damaged", "page \(index) of household \(household)'s snapshot at \(oldest.position) cannot be read")
      }
      pages.append(page)
    }
    let newest = pages.lazy.flatMap(\.changes).flatMap(\.fields.values).map(\.stamp.time).max() ?? 0
    guard newest < Int64((time.timeIntervalSince1970 * 1_000).rounded(.down)) else {
      let reach = Date(timeIntervalSince1970: TimeInterval(newest + 1) / 1_000)
      throw ServerError(
        .unprocessableContent, code: "restore-refused",
        message: "nothing restored: the log before sequence \(first) was compacted; the server can restore to \(ServerError.stamp(reach)) "
          + "or later (the compacted history's newest change)")
    }
    return pages
  }

  /// A time as an operator types it (UTC: "YYYY-MM-DD HH:MM[:SS]", or ISO 8601 with a
  /// zone), as a device's `restore --before` reads it; nil for anything else.
  public static func restoreTime(parsing text: String) -> Date? { PointInTime.time(parsing: text) }

  private func restore(_ name: String, before time: Date, apply: Bool) async throws -> HouseholdRestore {
    guard let household = try await storage.household(named: name) else { throw ServerError.noHousehold(name) }
    var batches = try await compactedPart(of: household.id, before: time)
    var unread = 0
    var after: Int64 = 0
    while true {
      let page = try await storage.batches(of: household.id, after: after, limit: 500)
      guard let last = page.last else { break }
      for entry in page {
        if let batch = try? ChangeBatchCoding.decode(entry.batch), batch.schemaVersion <= ChangeBatchCoding.schemaVersion {
          batches.append(batch)
        } else {
          unread += 1
        }
      }
      after = last.sequence
    }
    let now = configuration.clock()
    guard apply else {
      let restore = try PointInTime.restore(
        batches, before: time, replica: "operator", schemaVersion: ChangeBatchCoding.schemaVersion, now: now)
      return HouseholdRestore(summary: restore.plan.summary, writeCount: restore.plan.writeCount, sequence: nil, unreadBatches: unread)
    }
    // Planned before the device is made, so a refused restore leaves no device behind.
    _ = try PointInTime.restore(batches, before: time, replica: "operator", schemaVersion: ChangeBatchCoding.schemaVersion, now: now)
    let deviceID = try await storage.device(named: Self.restoreDeviceName, in: household.id, now: now)
    let state = try await storage.deviceState(of: deviceID)
    let replica = state.replicaID ?? "operator-" + UUID().uuidString.lowercased()
    let restore = try PointInTime.restore(batches, before: time, replica: replica, schemaVersion: ChangeBatchCoding.schemaVersion, now: now)
    guard let batch = restore.batch else {
      return HouseholdRestore(summary: restore.plan.summary, writeCount: restore.plan.writeCount, sequence: nil, unreadBatches: unread)
    }
    let credential = Credential(
      tokenID: "operator", householdID: household.id, household: household.name, cloudIdentifier: household.identifier,
      deviceID: deviceID, device: Self.restoreDeviceName, expiresAt: .distantFuture, revokedAt: nil)
    if state.replicaID == nil {
      _ = try await storage.register(
        DeviceRegistration(replicaID: replica, name: Self.restoreDeviceName, schemaVersion: ChangeBatchCoding.schemaVersion),
        for: credential, now: now)
    }
    let incoming = IncomingBatch(
      id: batch.id, replica: replica, schemaVersion: batch.schemaVersion, bytes: ChangeBatchCoding.encode(batch))
    let receipt = try await storage.append(
      incoming, from: credential, deviceSequence: state.lastDeviceSequence + 1, quota: configuration.heldQuota, now: now)
    return HouseholdRestore(
      summary: restore.plan.summary, writeCount: restore.plan.writeCount, sequence: receipt.sequence, unreadBatches: unread)
  }
}
