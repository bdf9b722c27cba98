import Foundation
public import Sync
import Synchronization

/// Snapshots of an in-memory cloud, taken when asked (a server takes its own from its log).
extension InMemoryCloud {
  /// Folds the log entries after the last snapshot into it (`SnapshotFold`) and keeps
  /// the result, in pages of at most `changesPerPage` records, as the snapshot devices
  /// with no place in the log start from.
  /// - Returns: the snapshot's position (where the fold stopped).
  @discardableResult
  public func takeSnapshot(rules: ChangeRules, changesPerPage: Int = 2_000) throws -> Int64 {
    try snapshots.withLock { snapshot in
      var fold = snapshot.fold
      while true {
        let entries = try pull(after: fold.position, limit: 1_000)
        guard !entries.isEmpty else { break }
        var stopped = false
        for entry in entries where !stopped {
          if case .stopped = fold.fold(entry, rules: rules) { stopped = true }
        }
        if stopped { break }
      }
      guard fold.position > 0 else { return 0 }
      snapshot = (fold, fold.pages(changesPerPage: changesPerPage))
      return fold.position
    }
  }

  /// Page `page` of the newest snapshot, when `position` is nil or its position.
  public func snapshotPage(_ page: Int, at position: Int64?) throws -> SnapshotPage? {
    snapshots.withLock { snapshot in
      let fold = snapshot.fold
      guard fold.position > 0, position == nil || position == fold.position, snapshot.pages.indices.contains(page) else { return nil }
      return SnapshotPage(
        position: fold.position, schemaVersion: fold.schemaVersion, page: page, pageCount: snapshot.pages.count,
        batch: snapshot.pages[page])
    }
  }
}
