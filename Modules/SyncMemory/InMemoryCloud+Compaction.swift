import Sync
import Synchronization

/// Compaction of an in-memory cloud's log, when asked (a server compacts its own by
/// `LogCompaction`'s rule, Docs/SERVER.md "Compaction").
extension InMemoryCloud {
  /// The log's floor: entries up to it were dropped (0: none).
  public var compactedThrough: Int64 { state.withLock { $0.compactedThrough } }

  /// The newest snapshot's position (0: none), which the floor never passes.
  public var snapshotPosition: Int64 { snapshots.withLock { $0.fold.position } }

  /// Drops the entries up to `position`, never past the newest snapshot's position
  /// (``takeSnapshot(rules:changesPerPage:)``): every dropped entry is folded into the
  /// snapshot a device behind the floor starts again from. A pull after a place below the
  /// floor then throws `CloudError.compacted(location:cursor:firstKept:)`.
  /// - Returns: how many entries it dropped.
  @discardableResult
  public func compact(through position: Int64) -> Int {
    let snapshot = snapshotPosition
    return state.withLock { state in
      let through = min(position, snapshot, state.compactedThrough + Int64(state.entries.count))
      guard through > state.compactedThrough else { return 0 }
      let dropped = Int(through - state.compactedThrough)
      state.entries.removeFirst(dropped)
      state.compactedThrough = through
      return dropped
    }
  }
}
