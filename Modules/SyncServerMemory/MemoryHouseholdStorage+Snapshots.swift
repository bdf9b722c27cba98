public import Foundation
public import SyncServer

extension MemoryHouseholdStorage: SnapshotStore {
  public func snapshots(of household: Int64) -> [SnapshotHeader] { keptSnapshots[household, default: []].map(\.header) }

  public func snapshotPage(of household: Int64, position: Int64, page: Int) -> Data? {
    guard let kept = keptSnapshots[household]?.first(where: { $0.header.position == position }), kept.pages.indices.contains(page) else {
      return nil
    }
    return kept.pages[page]
  }

  public func saveSnapshot(_ header: SnapshotHeader, pages: [Data], of household: Int64) {
    var kept = keptSnapshots[household, default: []]
    guard !kept.contains(where: { $0.header.position == header.position }) else { return }
    kept.append((header, pages))
    kept.sort { $0.header.position < $1.header.position }
    // The newest two, and the oldest at or above the log's floor: the one at the floor (it
    // holds the compacted batches), or the one the next compaction moves the floor to.
    let floor = compactedThrough[household, default: 0]
    let base = kept.first { $0.header.position >= floor }?.header.position
    keptSnapshots[household] = kept.enumerated().filter { $0.offset >= kept.count - 2 || $0.element.header.position == base }.map(\.element)
  }
}
