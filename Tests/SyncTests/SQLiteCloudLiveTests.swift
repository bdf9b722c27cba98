import Foundation
import Repositories
import Sync
import SyncSQLite
import TestSupport
import Testing

/// The SQLite-file cloud's live channel: two stores on one cloud file, each through a
/// connection of its own as two processes would have; a push by one wakes the other's
/// driver, which syncs without anyone asking (its safety poll is an hour away).
@Suite(.timeLimit(.minutes(5)))
struct SQLiteCloudLiveTests {
  @Test(arguments: TestBackend.allCases)
  func aPushThroughTheFileWakesTheOtherDevice(_ backend: TestBackend) throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path
    let writer = try SyncWorld(backend, devices: ["phone"], cloud: try SQLiteCloud(path: path))
    let reader = try SyncWorld(backend, devices: ["laptop"], cloud: try SQLiteCloud(path: path), seed: 1)
    var options = LiveSync.Options()
    options.pollInterval = .seconds(3_600)
    let live = LiveSync(engine: reader["laptop"].engine, options: options)
    live.start()
    defer { live.stop() }
    // Opened and caught up: the first sync, then the file's channel says where the log ends.
    try Self.run(live) { live.status.mode == .live }
    let syncsWhenOpen = live.status.syncs

    _ = try writer["phone"].library.categories.getOrCreate("Produce")
    try writer.sync("phone")
    try Self.run(live) { try reader["laptop"].library.categories.find("Produce") != nil }
    #expect(live.status.lastAnnouncement == 1)
    #expect(live.status.syncs == syncsWhenOpen + 1)
    #expect(try live.lag() == 0)
  }

  /// Waits on the driver and runs what is due, as the REPL's loop does, until `done`
  /// (at most 600 waits of at most 100 ms: a minute, then the test fails).
  static func run(_ live: LiveSync, until done: () throws -> Bool) throws {
    for _ in 0..<600 {
      if try done() { return }
      live.wait(timeout: .milliseconds(100))
      try live.runDue()
    }
    Issue.record("the live device did not reach its state")
  }
}
