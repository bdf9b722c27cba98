public import Foundation
public import SyncServer

extension MemoryHouseholdStorage {
  /// Compacts the household's log as `LogCompaction` decides; the actor is the critical section.
  public func compactLog(of household: Int64, retainedFrom: Date, assumingSnapshotAt: Int64?, dryRun: Bool, now: Date)
    -> HouseholdCompaction
  {
    let previous = compactedThrough[household, default: 0]
    let log = logs[household, default: []]
    let floor = HouseholdCompaction.floor(
      previousFloor: previous,
      snapshotPositions: keptSnapshots[household, default: []].map(\.header.position)
        + (dryRun ? assumingSnapshotAt.map { [$0] } ?? [] : []),
      devices: holdingBack(household, now: now), firstRetained: log.first { $0.receivedAt >= retainedFrom }?.sequence)
    let dropped = log.prefix { $0.sequence <= floor.through }
    let bytes = dropped.reduce(Int64(0)) { $0 + Int64($1.bytes.count) }
    let snapshots = keptSnapshots[household, default: []].map(\.header.position).filter { $0 < floor.through }
    if !dryRun && !dropped.isEmpty {
      logs[household] = Array(log.dropFirst(dropped.count))
      compactedThrough[household] = floor.through
      storedBytes[household, default: 0] -= bytes
      let gone = Set(dropped.map(\.sequence))
      batchIndex[household] = batchIndex[household]?.filter { !gone.contains($0.value) }
      keptSnapshots[household] = keptSnapshots[household]?.filter { $0.header.position >= floor.through }
    }
    return HouseholdCompaction(
      previousFloor: previous, floor: floor.through, limit: floor.limit, reach: floor.reach, batches: dropped.count, bytes: bytes,
      snapshots: dryRun || !dropped.isEmpty ? snapshots : [], dryRun: dryRun)
  }

  /// The household's devices that hold compaction back (``HouseholdCompaction/holdsBack(synced:liveToken:)``).
  private func holdingBack(_ household: Int64, now: Date) -> [HouseholdCompaction.Device] {
    devicesByID.values.filter { device in
      guard device.householdID == household else { return false }
      let live = tokens.values.contains { $0.record.deviceID == device.id && $0.revokedAt == nil && $0.record.expiresAt > now }
      return HouseholdCompaction.holdsBack(synced: device.state.replicaID != nil || device.pulledThrough > 0, liveToken: live)
    }.map { HouseholdCompaction.Device(name: $0.name, pulledThrough: $0.pulledThrough) }
  }
}
