import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// Two records of a unique kind that show one key are shown as one entity, computed from
/// the state alone: a device that passes through such a meeting on the way (a rename that
/// arrives before the rename that undid it) records nothing, and only a user who acts on
/// the one entity they see makes it one for good.
@Suite("Records that meet under one key")
struct KeyMeetingTests {
  static func names(_ library: Library) throws -> [String] { try library.categories.all().map(\.displayName).sorted() }

  /// "Veg" renamed "Produce" and pushed, then "Produce" created on another device, then
  /// "Produce" renamed "Fruit": a device that reads the log one batch at a time sees
  /// the two "Produce" meet between the second and fourth batch.
  @Test(arguments: TestBackend.allCases)
  func aMeetingOnTheWayLeavesNoTrace(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["a", "b", "c"], pullPageSize: 1, seed: 7)
    let a = world["a"].library, b = world["b"].library
    _ = try a.categories.getOrCreate("Veg")
    try world.sync("a")
    _ = try a.categories.rename("Veg", to: "Produce")
    try world.sync("a")
    _ = try b.categories.getOrCreate("Produce")
    _ = try a.categories.rename("Produce", to: "Fruit")
    try world.sync("b")
    try world.sync("a")

    let report = try world.sync("c")
    #expect(report.exported == 0, "a device that only read pushes nothing: \(report)")
    #expect(try Self.names(world["c"].library) == ["Fruit", "Produce"])
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try Self.names(device.library) == ["Fruit", "Produce"], "\(device.name)")
    }
    #expect(try world.invariantViolations().isEmpty)
  }

  /// Two devices' records meet under "Produce"; a user renames (or deletes) the one
  /// entity they see: every device shows that for all of it, not the other record coming
  /// back under its old name.
  @Test(arguments: TestBackend.allCases, [false, true])
  func actingOnTheEntityMakesItOne(_ backend: TestBackend, delete: Bool) throws {
    let world = try SyncWorld(backend, devices: ["a", "b"], seed: 8)
    let a = world["a"].library, b = world["b"].library
    _ = try a.categories.getOrCreate("Veg")
    try world.sync("a")
    _ = try b.categories.getOrCreate("Produce")
    try world.sync("b")
    _ = try a.categories.rename("Veg", to: "Produce")
    let meeting = try world.sync("a")
    #expect(meeting.merges == 1, "the meeting is shown: \(meeting)")
    try world.sync("b")
    for device in world.devices { #expect(try Self.names(device.library) == ["Produce"], "\(device.name)") }

    if delete {
      _ = try b.categories.delete("Produce")
    } else {
      _ = try b.categories.rename("Produce", to: "Fruit")
    }
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try Self.names(device.library) == (delete ? [] : ["Fruit"]), "\(device.name)")
    }
    #expect(try world.invariantViolations().isEmpty)
  }

  /// A store whose registers were written before the key index existed gets it built on
  /// its next sync, the same index a store that kept it all along holds.
  @Test(arguments: TestBackend.allCases)
  func aStoreWithoutTheKeyIndexGetsItOnce(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["a", "b"], seed: 9)
    let a = world["a"].library
    for name in ["Produce", "Dairy", "Bakery"] { _ = try a.categories.getOrCreate(name) }
    _ = try a.ingredients.getOrCreate("egg")
    try world.syncUntilQuiet()
    let store = world["b"].store
    let kept = try Self.keyIndex(store)
    #expect(kept.count == 4)
    try store.write(origin: .sync) { writer in
      for key in kept.keys { try writer.setMetadata(nil, forKey: key) }
      try writer.setMetadata("2", forKey: "sync.format")
    }
    #expect(try Self.keyIndex(store).isEmpty)
    let report = try world.sync("b")
    #expect(report.exported == 0 && report.merges == 0, "\(report)")
    #expect(try Self.keyIndex(store) == kept)
    #expect(try store.read { try $0.metadata(forKey: "sync.format") } == "4")
  }

  /// The key index entries (`sync.keys/<kind>/<key>` → the holders' ids).
  static func keyIndex(_ store: any Store) throws -> [String: String] {
    try store.read { reader in try reader.metadata(forKeys: try reader.metadataKeys(withPrefix: "sync.keys/")) }
  }

  /// A store that kept the key index as an entry per key and record (format 3) gets one
  /// entry per key on its next sync, the same index a newer store holds, and pushes nothing.
  @Test(arguments: TestBackend.allCases)
  func aStoreWithTheFormerKeyIndexIsConvertedOnce(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["a", "b"], seed: 11)
    let a = world["a"].library, b = world["b"].library
    for name in ["Produce", "Dairy"] { _ = try a.categories.getOrCreate(name) }
    _ = try b.categories.getOrCreate("Bakery")
    try world.syncUntilQuiet()
    // Two records that hold one key: the index lists both under it.
    _ = try b.categories.rename("Bakery", to: "Bread")
    _ = try a.categories.rename("Dairy", to: "Bread")
    try world.syncUntilQuiet()
    let store = world["b"].store
    let kept = try Self.keyIndex(store)
    #expect(kept.values.contains { $0.count == 72 }, "one key is held by two records: \(kept)")
    try store.write(origin: .sync) { writer in
      for (key, ids) in kept {
        try writer.setMetadata(nil, forKey: key)
        let name = "sync.key/" + key.dropFirst("sync.keys/".count)
        for start in stride(from: 0, to: ids.count, by: 36) {
          let id = ids.dropFirst(start).prefix(36)
          try writer.setMetadata("", forKey: name + "/" + id)
        }
      }
      try writer.setMetadata("3", forKey: "sync.format")
    }
    let former = try store.read { try $0.metadataKeys(withPrefix: "sync.key/") }
    #expect(former.count == kept.values.reduce(0) { $0 + $1.count / 36 })
    let report = try world.sync("b")
    #expect(report.exported == 0 && report.merges == 0, "\(report)")
    #expect(try Self.keyIndex(store) == kept)
    #expect(try store.read { try $0.metadataKeys(withPrefix: "sync.key/") }.isEmpty)
    #expect(try store.read { try $0.metadata(forKey: "sync.format") } == "4")
    #expect(try SyncWorld.liveState(store) == SyncWorld.liveState(world["a"].store))
  }
}
