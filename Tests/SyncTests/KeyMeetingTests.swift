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

  /// The key each state holds, for every key some state holds: `<kind>/<key>` → the
  /// holders' ids, sorted, as the store's index of the keys states hold finds them.
  static func keyIndex(_ store: any Store) throws -> [String: [String]] {
    let states = try store.syncStates()
    return try store.read { reader in
      var index: [String: [String]] = [:]
      for kind in EntityKind.allCases where kind.schema.identity.isUnique {
        guard let field = kind.schema.semanticKeyField else { continue }
        let keys = states.filter { $0.key.hasPrefix(kind.rawValue + "/") }.compactMap { _, text in
          Data(base64Encoded: text).flatMap { try? ChangeBatchCoding.decode($0) }?.changes.first?.fields[field]?.value.text
        }
        for (key, ids) in try reader.syncStateHolders(kind, keys: keys) {
          index[kind.rawValue + "/" + key] = ids.map { $0.uuidString.lowercased() }.sorted()
        }
      }
      return index
    }
  }

  /// A store that kept its states as metadata entries (formats 2 to 4: without a key
  /// index, with an index entry per key and record, with one per key) has them moved into
  /// the store's sync states on its next sync, with the same keys indexed, and pushes
  /// nothing. The earlier layout is written from a converged store's own states.
  @Test(arguments: ["2", "3", "4"], TestBackend.allCases)
  func aStoreInAnEarlierFormatIsConvertedOnce(_ format: String, _ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["a", "b"], seed: 11)
    let a = world["a"].library, b = world["b"].library
    for name in ["Produce", "Dairy"] { _ = try a.categories.getOrCreate(name) }
    _ = try a.ingredients.getOrCreate("egg")
    _ = try b.categories.getOrCreate("Bakery")
    try world.syncUntilQuiet()
    // Two records that hold one key: the index lists both under it.
    _ = try b.categories.rename("Bakery", to: "Bread")
    _ = try a.categories.rename("Dairy", to: "Bread")
    try world.syncUntilQuiet()
    let store = world["b"].store
    let (states, kept) = (try store.syncStates(), try Self.keyIndex(store))
    #expect(kept.count == 3 && kept["category/bread"]?.count == 2, "one key is held by two records: \(kept)")
    try store.write(origin: .sync) { writer in
      for (record, text) in states {
        let parts = record.split(separator: "/")
        guard let kind = EntityKind(rawValue: String(parts[0])), let id = UUID(uuidString: String(parts[1])) else { continue }
        try writer.setSyncState(nil, key: nil, kind: kind, id: id)
        try writer.setMetadata(text, forKey: "sync.state/" + record)
      }
      for (key, ids) in kept where format != "2" {
        if format == "3" {
          for id in ids { try writer.setMetadata("", forKey: "sync.key/\(key)/\(id)") }
        } else {
          try writer.setMetadata(ids.joined(), forKey: "sync.keys/" + key)
        }
      }
      try writer.setMetadata(format, forKey: "sync.format")
    }
    #expect(try store.syncStates().isEmpty)
    let report = try world.sync("b")
    #expect(report.exported == 0 && report.merges == 0, "\(report)")
    #expect(try store.syncStates() == states)
    #expect(try Self.keyIndex(store) == kept)
    #expect(try store.read { try $0.metadataKeys(withPrefix: "sync.state/") + $0.metadataKeys(withPrefix: "sync.key") }.isEmpty)
    #expect(try store.read { try $0.metadata(forKey: "sync.format") } == "5")
    #expect(try SyncWorld.liveState(store) == SyncWorld.liveState(world["a"].store))
  }
}
