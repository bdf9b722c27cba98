import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// The sync monitor's state, backlog and stream of statuses.
@Suite("Sync monitor", .timeLimit(.minutes(1)))
struct SyncMonitorTests {
  @Test(arguments: TestBackend.allCases)
  func aFailedPushLeavesTheDeviceOfflineWithItsChangesPendingUntilASyncSucceeds(_ backend: TestBackend) throws {
    let cloud = InterposedCloud(InMemoryCloud(identifier: "household"))
    let store = try backend.makeStore()
    let library = Library(store: store)
    let monitor = SyncMonitor(clock: { Fixtures.epoch })
    let engine = SyncEngine(store: store, cloud: cloud, deviceName: "phone", monitor: monitor)
    #expect(monitor.status.state == .idle)
    _ = try library.categories.getOrCreate("Produce")
    cloud.failPush(1)
    #expect(throws: CloudError.self) { try engine.sync() }
    var status = monitor.status
    #expect(status.state == .offline)
    #expect(status.lastError?.contains("push refused by the test") == true)
    #expect(status.lastSuccess == nil)
    #expect(status.pendingChanges == 1)
    #expect(status.setAsideChanges == 0)

    try engine.sync()
    status = monitor.status
    #expect(status.state == .idle)
    #expect(status.lastError == nil)
    #expect(status.lastSuccess == Fixtures.epoch)
    #expect(status.pendingChanges == 0)
  }

  @Test func theStateFollowsOfflineLiveAndARefusal() {
    let monitor = SyncMonitor()
    monitor.setLive(true)
    #expect(monitor.status.state == .live)
    monitor.syncStarted()
    #expect(monitor.status.state == .syncing)
    monitor.syncEnded(error: CloudError.damaged(location: "cloud", reason: "a torn page"), pending: 3, setAside: 2)
    #expect(monitor.status.state == .refused)
    #expect(monitor.status.pendingChanges == 3 && monitor.status.setAsideChanges == 2)
    monitor.setOffline(true)
    #expect(monitor.status.state == .offline)
    monitor.setOffline(false)
    monitor.syncStarted()
    monitor.syncEnded(error: nil, pending: 0, setAside: 2)
    #expect(monitor.status.state == .live)
    monitor.setLive(false)
    #expect(monitor.status.state == .idle)
  }

  /// The stream starts with the status now and keeps only the newest for a slow consumer.
  @Test func updatesStartWithTheStatusNowAndCoalesce() async {
    let monitor = SyncMonitor()
    monitor.record(.sync, "first")
    var updates = monitor.updates().makeAsyncIterator()
    #expect(await updates.next()?.syncs == 1)
    for number in 2...50 { monitor.record(.sync, "sync \(number)") }
    #expect(await updates.next()?.syncs == 50)
    monitor.setOffline(true)
    #expect(await updates.next()?.state == .offline)
  }

  @Test func cancellingTheConsumerEndsTheUpdates() async {
    let monitor = SyncMonitor()
    let consumer = Task {
      var seen = 0
      for await _ in monitor.updates() { seen += 1 }
      return seen
    }
    consumer.cancel()
    #expect(await consumer.value <= 1)
    monitor.record(.sync, "after")  // no watcher is left to tell
  }
}
