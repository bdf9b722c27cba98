import Foundation
import Model
import Repositories
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import TestSupport
import Testing

/// Devices whose clocks are a year behind and a year ahead of the server's sync through it
/// on loopback from their first sync: they stamp on the server's clock, which every answer
/// carries, so the door takes their pushes and they set aside nothing the others pushed.
@Suite(.timeLimit(.minutes(5)))
struct TimeAuthorityServerTests {
  static let year: TimeInterval = 365 * 86_400

  @Test func devicesAYearOffSyncFullyThroughTheServer() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "tablet", "laptop"])
    try await withServer(storage) { url, _ in
      try await onThread {
        func device(_ index: Int, _ name: String, shift: TimeInterval) throws -> Device {
          let cloud = try HTTPCloud(url: url, token: secrets[index], timeout: .seconds(10))
          return try Device(name, cloud: cloud, clock: TickingClock(start: Date().addingTimeInterval(shift)), seed: UInt64(index + 1))
        }
        let phone = try device(0, "phone", shift: 0)
        let tablet = try device(1, "tablet", shift: -Self.year)
        let laptop = try device(2, "laptop", shift: Self.year)
        let serverTime = try #require(try phone.engine.cloud.authorityTime())
        #expect(abs(serverTime.timeIntervalSinceNow) < 5)

        // The laptop writes before its first sync, on a clock a year ahead: the door refused
        // such a push as clock-ahead before devices stamped on the server's clock.
        _ = try laptop.library.categories.getOrCreate("Dairy")
        try laptop.engine.sync()
        _ = try phone.library.categories.getOrCreate("Produce")
        try phone.engine.sync()
        try tablet.engine.sync()
        #expect(try tablet.view() == ["category Dairy", "category Produce"])
        _ = try tablet.library.categories.rename("Produce", to: "Vegetables")
        try tablet.engine.sync()
        for device in [phone, laptop, tablet] { try device.engine.sync() }
        for device in [phone, tablet, laptop] {
          #expect(try device.view() == ["category Dairy", "category Vegetables"], "\(device.name)")
          #expect(try device.engine.setAsideChanges().isEmpty, "\(device.name)")
          #expect(try device.engine.pendingChangeCount() == 0, "\(device.name)")
        }
        #expect(try tablet.engine.clockOffset() ?? 0 > Self.year - 60)
        #expect(try laptop.engine.clockOffset() ?? 0 < -Self.year + 60)
      }
    }
  }
}
