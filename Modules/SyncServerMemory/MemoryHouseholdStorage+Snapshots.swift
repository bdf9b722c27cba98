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
    keptSnapshots[household] = Array(kept.suffix(2))
  }
}
