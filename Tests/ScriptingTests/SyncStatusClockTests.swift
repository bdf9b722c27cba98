import Foundation
import Persistence
import Scripting
import TestSupport
import Testing

@testable import Sync

/// `sync status` says how far a device's clock lies from the household's time authority
/// once a sync learned it (Docs/SYNC.md, "One time authority"), and says nothing for a
/// clock within a second of it.
@Suite("Sync status: the device's clock")
struct SyncStatusClockTests {
  @Test func statusSaysHowFarTheClockIsFromTheAuthority() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      device add tablet
      category add Produce
      sync all
      """)
    #expect(try !harness.text("sync status").contains("time authority"))
    // What a sync through a server a year ahead of the phone's clock keeps.
    let phone = try #require(harness.session.devices.first { $0.name == "phone" })
    try phone.store.write(origin: .sync) { try $0.setMetadata(String(365 * 86_400_000 + 4 * 3_600_000), forKey: ReplicaKeys.clockOffset) }
    let tablet = try #require(harness.session.devices.first { $0.name == "tablet" })
    try tablet.store.write(origin: .sync) { try $0.setMetadata("-250000", forKey: ReplicaKeys.clockOffset) }
    let text = try harness.text("sync status")
    #expect(text.contains("phone's clock is 365 d 4 h behind the household's time authority"), "\(text)")
    #expect(text.contains("tablet's clock is 4 min 10 s ahead of the household's time authority"), "\(text)")
  }
}
