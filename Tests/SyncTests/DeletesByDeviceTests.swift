import Foundation
import Model
import Repositories
import TestSupport
import Testing

@testable import Sync

/// `RecordHistory.deletesByDevice(since:in:)`: the deletes a device's history holds, by
/// the device that made them, from a time on (what `sync status` shows for the last day).
@Suite("Deletes by device")
struct DeletesByDeviceTests {
  @Test(arguments: TestBackend.allCases)
  func eachDevicesDeletesAreCountedOnceFromTheirTimeOn(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone", "tablet"])
    let phone = world["phone"].library, tablet = world["tablet"].library
    for name in ["Produce", "Dairy", "Bakery", "Frozen"] { _ = try phone.categories.getOrCreate(name) }
    try world.sync("phone")
    try world.sync("tablet")
    let start = world.clock.now()
    _ = try tablet.categories.delete("Produce")
    _ = try tablet.categories.delete("Dairy")
    _ = try phone.categories.delete("Bakery")
    for _ in 0..<2 {
      try world.sync("tablet")
      try world.sync("phone")
    }
    let phoneReplica = try #require(try RecordHistory.replicaID(of: world["phone"].store))
    let tabletReplica = try #require(try RecordHistory.replicaID(of: world["tablet"].store))
    let expected = [
      RecordHistory.DeleteCount(replica: tabletReplica, deletes: 2), RecordHistory.DeleteCount(replica: phoneReplica, deletes: 1),
    ]
    for name in ["phone", "tablet"] {
      #expect(try RecordHistory.deletesByDevice(since: start, in: world[name].store) == expected, "\(name)")
      #expect(try RecordHistory.deletesByDevice(since: world.clock.now(), in: world[name].store) == [], "\(name): none after now")
    }
    // A record restored and deleted again is a second delete.
    let bakery = try #require(try phone.deletedRecords().first { $0.kind == .category && $0.values.contains(.text("Bakery")) })
    _ = try RecordHistory.restore(.category, id: bakery.id, with: phone)
    try world.sync("phone")
    _ = try phone.categories.delete("Bakery")
    try world.sync("phone")
    let counts = try RecordHistory.deletesByDevice(since: start, in: world["phone"].store)
    #expect(counts.first { $0.replica == phoneReplica }?.deletes == 2, "\(counts)")
    // Only the newest entries are read: the newest is the second delete of Bakery.
    #expect(try RecordHistory.deletesByDevice(since: start, in: world["phone"].store, scanning: 0) == [])
    #expect(
      try RecordHistory.deletesByDevice(since: start, in: world["phone"].store, scanning: 1) == [
        RecordHistory.DeleteCount(replica: phoneReplica, deletes: 1)
      ])
  }
}
