import Foundation
import Persistence

/// How a device with no place in the log starts: from the cloud's snapshot of the
/// household's joined states (``SnapshotPage``) instead of the whole log (Docs/SYNC.md,
/// "Snapshots").
extension SyncEngine {
  /// When this device's pull position is `place` (0: it has pulled nothing yet) and the
  /// cloud keeps a snapshot it can read whose position is at least `reaching`, joins every
  /// page of it in one transaction into the states the device holds and takes its position
  /// as the pull position; the pull then takes only the batches after it. A device behind a
  /// compacted log's start calls it with its own place (the join is commutative, so what it
  /// holds, its own writes not yet pushed among them, stays). Each page is held to the
  /// rules of a pulled batch before anything is joined from it: a page that breaks them
  /// (or a snapshot that changes while it is read) fails the sync, leaving the store as it
  /// was. A snapshot of a newer schema than this device's is not used: the device pulls
  /// the log, holding what it cannot read.
  /// - Returns: whether the device started from a snapshot.
  @discardableResult
  func startFromSnapshot(into report: inout Report, from place: Int64 = 0, reaching: Int64 = 0) throws -> Bool {
    guard try store.read({ try $0.syncInteger(ReplicaKeys.token) }) == place, let first = try cloud.snapshotPage(0, at: nil),
      first.position > place, first.position >= reaching
    else {
      return false
    }
    guard first.schemaVersion <= schemaVersion else {
      monitor.record(
        .sync, "\(deviceName): the cloud's snapshot is schema v\(first.schemaVersion), newer than v\(schemaVersion); pulling the log")
      return false
    }
    let rules = pullRules()
    func refuse(_ problem: String) -> CloudError {
      .damaged(location: cloud.location, reason: "its snapshot at position \(first.position) cannot be joined: \(problem)")
    }
    if let problem = first.problem(expecting: 0, of: nil, pageCount: nil, rules: rules) { throw refuse(problem) }
    let counts = try writeStates { writer -> SyncCounts? in
      // Another engine on this store pulled meanwhile.
      guard try writer.syncInteger(ReplicaKeys.token) == place else { return nil }
      var total = SyncCounts()
      for index in 0..<first.pageCount {
        var page = first
        if index > 0 {
          guard let next = try cloud.snapshotPage(index, at: first.position) else {
            throw refuse("page \(index) of \(first.pageCount) is gone (a newer snapshot replaced it); the next sync starts again")
          }
          if let problem = next.problem(expecting: index, of: first.position, pageCount: first.pageCount, rules: rules) {
            throw refuse(problem)
          }
          page = next
        }
        let counts = try join([page.batch], writer, rules: rules)
        total.imports += counts.imports
        total.conflicts += counts.conflicts
        total.merges += counts.merges
        total.errors += counts.errors
      }
      try writer.setSyncInteger(first.position, ReplicaKeys.token)
      return total
    }
    guard let counts else { return false }
    add(counts, to: &report)
    report.snapshotPosition = first.position
    monitor.record(
      .sync,
      "\(deviceName): started \(place > 0 ? "again, from behind the log's start, " : "")from the snapshot at position "
        + "\(first.position) (\(counts.imports) records)")
    return true
  }
}
