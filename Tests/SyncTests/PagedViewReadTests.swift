import Foundation
import Model
import Persistence
import Repositories
import Sync
import SyncMemory
import TestSupport
import Testing

/// The view of a pulled page reads the rows it compares with a page at a time, not one
/// query per record: a device catching up on thousands of records pays a few reads.
@Suite("Paged view reads")
struct PagedViewReadTests {
  @Test(arguments: TestBackend.allCases)
  func aPullReadsTheRowsItShowsAPageAtATime(_ backend: TestBackend) throws {
    let cloud = InMemoryCloud()
    let writerStore = try backend.makeStore()
    try Library(store: writerStore).transaction { tx in
      for index in 0..<1_200 { _ = try tx.ingredients.getOrCreate("herb \(index)") }
    }
    try SyncEngine(store: writerStore, cloud: cloud, deviceName: "writer", replicaIDs: .seeded(1)).sync()

    let reader = ReadCountingStore(try backend.makeStore())
    let engine = SyncEngine(store: reader, cloud: cloud, deviceName: "reader", replicaIDs: .seeded(2))
    reader.reset()
    let report = try engine.sync()

    #expect(report.imported == 1_200)
    #expect(try Library(store: reader).counts()[.ingredientTemplate] == 1_200)
    // One read per page of rows; a read per pulled record would be 1,200.
    let reads = reader.readCalls[.ingredientTemplate, default: 0]
    #expect(reads <= 20, "the view read template rows \(reads) times for 1,200 pulled records")
  }
}
