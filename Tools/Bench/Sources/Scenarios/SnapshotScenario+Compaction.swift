import BenchBaselines
import Foundation
import Sync
import SyncServer
import SyncServerMemory
import SyncWire

extension SnapshotScenario {
  /// What the server keeps of a household after compaction, measured on the server's own
  /// storage code (`MemoryHouseholdStorage`: the same rule and calls as PostgreSQL's).
  struct ServerStorage {
    var snapshotBytes: Int64 = 0
    var keptBatches = 0
    var keptLogBytes: Int64 = 0
    var keptSnapshotBytes: Int64 = 0
    var droppedBatches = 0
    var foldSeconds = 0.0
    var ratio: Double { Double(keptLogBytes + keptSnapshotBytes) / Double(max(1, snapshotBytes)) }
  }

  /// The retention window: `serve`'s default, 7 days.
  static let retention: TimeInterval = 7 * 86_400

  /// Copies the cloud's log into a server storage as device A's pushes, their arrivals
  /// spread evenly over `historySpan` (the `snapshot.days` size: three years by default, a
  /// household that has synced for years); makes the server's snapshot, lets A and B (both
  /// registered) pull to the end, and compacts with ``retention``, so the batches of the
  /// last 7 days stay.
  static func compactOnServer(_ cloud: any CloudStore, historySpan: TimeInterval) async throws -> ServerStorage {
    let storage = MemoryHouseholdStorage()
    let now = Date()
    var configuration = ServerConfiguration()
    configuration.clock = { now }
    configuration.retention = retention
    let admin = Administration(storage: storage, configuration: configuration)
    let household = try await admin.addHousehold("Bench")
    var credentials: [Credential] = []
    for device in ["A", "B"] {
      let issued = try await admin.issueToken(household: "Bench", device: device)
      guard let credential = await storage.credential(forTokenHash: issued.token.hash) else { throw BenchError("no credential") }
      credentials.append(credential)
    }
    let end = try cloud.latestSequence()
    var after: Int64 = 0
    while true {
      let entries = try cloud.pull(after: after, limit: 1_000)
      guard let last = entries.last else { break }
      for entry in entries {
        let arrived = now.addingTimeInterval(-historySpan * Double(end - entry.sequence) / Double(max(1, end)))
        let batch = entry.batch
        _ = try await storage.append(
          IncomingBatch(id: batch.id, replica: batch.replica, schemaVersion: batch.schemaVersion, bytes: ChangeBatchCoding.encode(batch)),
          from: credentials[0], deviceSequence: entry.sequence, quota: configuration.heldQuota, now: arrived)
      }
      after = last.sequence
    }
    _ = try await storage.register(
      DeviceRegistration(replicaID: "bench-b", name: "B", schemaVersion: ChangeBatchCoding.schemaVersion), for: credentials[1], now: now)
    var result = ServerStorage()
    var made: SnapshotHeader?
    result.foldSeconds = try await timeAsync {
      made = try await SnapshotMaker(storage: storage, configuration: configuration).make(of: household.id, now: now)
    }
    guard let snapshot = made, snapshot.position == end else { throw BenchError("the server's snapshot does not reach \(end)") }
    result.snapshotBytes = snapshot.bytes
    for credential in credentials {
      _ = await storage.page(of: household.id, device: credential.deviceID, after: end, limit: 1, maxBytes: 1)
    }
    let done = try await admin.compactHousehold("Bench", dryRun: false)
    result.droppedBatches = done.batches
    let summary = await storage.householdSummaries(now: now).first
    result.keptBatches = summary?.batches ?? 0
    result.keptLogBytes = summary?.bytes ?? 0
    result.keptSnapshotBytes = await storage.snapshots(of: household.id).reduce(0) { $0 + $1.bytes }
    return result
  }

  static func timeAsync(_ body: () async throws -> Void) async throws -> Double {
    let started = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
