import CommandLanguage
import Foundation
import Scripting
import Sync
import SyncMemory
import Testing

/// `sync status` and the REPL's live notices read each device's `SyncMonitor`: the one its
/// `sync` commands and its live sync report to. A sync made either way shows in the
/// status's state, last success, last error and events.
@Suite(.timeLimit(.minutes(2))) struct SyncStatusMonitorTests {
  @Test func syncStatusShowsTheMonitorsStateLastErrorAndEvents() throws {
    let harness = try Harness()
    let cloud = OutageCloud()
    harness.session.cloud = cloud
    try harness.run("category add Dairy\nsync")
    var status = try harness.json("sync status")
    #expect(status.rows("devices").map { $0.string("state") } == ["idle"])
    #expect(status.rows("monitor").first?.string("lastSuccess") != nil)
    #expect(status.rows("events").contains { $0.string("detail")?.hasPrefix("default: pulled 0, pushed ") == true }, "\(status)")

    cloud.goDown()
    try harness.expectFailure("sync", .failed, mentions: ["attempt"])
    status = try harness.json("sync status")
    #expect(status.rows("devices").map { $0.string("state") } == ["offline"])
    let error = try #require(status.rows("monitor").first?.string("lastError"))
    #expect(error.contains("connection refused"))
    let text = try harness.text("sync status")
    #expect(text.contains("default's last sync failed (offline): \(error); last success "), "\(text)")

    // A sync that succeeds clears the error and its line.
    cloud.comeBack()
    try harness.run("sync")
    #expect(try harness.json("sync status").rows("devices").map { $0.string("state") } == ["idle"])
    #expect(try !harness.text("sync status").contains("last sync failed"))
  }

  @Test func liveSyncReportsToTheMonitorThatSyncStatusAndTheNoticesRead() throws {
    let clock = ManualClock()
    let cloud = InMemoryCloud()
    let (writer, reader) = (try Harness(), try Harness())
    for harness in [writer, reader] {
      harness.session.cloud = cloud
      harness.session.liveClock = clock.now
    }
    try writer.run("category add Dairy\ncategory add Bakery\nsync")
    try reader.run("sync live on")
    let notices = reader.session.runLive()
    // The first live round pulled both categories: the notice counts what the monitor
    // recorded, and the status shows the live state and the live sync's event.
    let live = try #require(reader.session.liveSync(for: reader.session.current))
    let imports = live.engine.monitor.status.imports
    #expect(imports >= 2)
    #expect(notices == ["· \(imports) changes from the household"], "\(notices)")
    let status = try reader.json("sync status")
    #expect(status.rows("devices").map { $0.string("state") } == ["live"], "\(status)")
    #expect(status.rows("devices").map { $0.int("imports") } == [imports])
    #expect(status.rows("events").contains { $0.string("detail") == "default: applied \(imports) record changes" }, "\(status)")
  }
}
