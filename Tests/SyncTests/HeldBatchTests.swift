import Foundation
import GRDB
import Model
import Persistence
import Repositories
import Sync
import SyncSQLite
import TestSupport
import Testing

/// A device keeps what a newer schema wrote instead of dropping it or stopping: the batch
/// is held, the batches after it still arrive, and the first sync after the device's
/// upgrade applies it.
@Suite("Batches from a newer schema")
struct HeldBatchTests {
  static func engine(_ store: any Store, _ cloud: any CloudStore, _ name: String, schema: Int, seed: UInt64) -> SyncEngine {
    SyncEngine(store: store, cloud: cloud, deviceName: name, schemaVersion: schema, replicaIDs: .seeded(seed))
  }

  @Test(arguments: TestBackend.allCases)
  func aNewerDevicesBatchIsHeldThenAppliedAfterTheUpgrade(_ backend: TestBackend) throws {
    let cloud = InMemoryCloud(identifier: "household")
    let clock = TickingClock()
    let newer = try backend.makeStore(clock: clock.now), older = try backend.makeStore(clock: clock.now),
      third = try backend.makeStore(clock: clock.now)
    _ = try Library(store: newer, now: clock.now).categories.getOrCreate("Pantry")
    try Self.engine(newer, cloud, "tablet", schema: 4, seed: 1).sync()
    _ = try Library(store: third, now: clock.now).categories.getOrCreate("Dairy")
    try Self.engine(third, cloud, "laptop", schema: 3, seed: 2).sync()

    let phone = Self.engine(older, cloud, "phone", schema: 3, seed: 3)
    let report = try phone.sync()
    #expect(report.held == 1)
    let names = { try Library(store: older).categories.all().map(\.displayName) }
    #expect(try names() == ["Dairy"])  // the batch after the held one arrived
    let held = try phone.heldBatches()
    #expect(held.map(\.schemaVersion) == [4])
    #expect(held.first?.reason.contains("newer than this device's v3") == true)
    #expect(try phone.sync().held == 0)  // kept once, not again at each sync
    #expect(try phone.heldBatches().count == 1)

    // The phone is upgraded: its next sync applies what it kept.
    let upgraded = Self.engine(older, cloud, "phone", schema: 4, seed: 3)
    let after = try upgraded.sync()
    #expect(after.imported > 0)
    #expect(try names().sorted() == ["Dairy", "Pantry"])
    #expect(try upgraded.heldBatches().isEmpty)
  }

  @Test func aBatchThisVersionCannotDecodeIsHeldWithItsReason() throws {
    let directory = try TemporaryDirectory.make()
    let cloudPath = directory.appendingPathComponent("cloud.sqlite").path
    let cloud = try SQLiteCloud(path: cloudPath)
    let stamp = Stamp(time: 1, counter: 0, replica: "tablet")
    let change = RecordChange(
      kind: .category, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: [RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp)])
    // A kind this version does not know ("pantries", as long as "category").
    var bytes = ChangeBatchCoding.encode(ChangeBatch(id: "tablet:1", replica: "tablet", schemaVersion: 7, changes: [change]))
    let range = try #require(bytes.range(of: Data("category".utf8)))
    bytes.replaceSubrange(range, with: Data("pantries".utf8))
    #expect(throws: ChangeBatchCoding.DecodingError.self) { try ChangeBatchCoding.decode(bytes) }
    // What a newer forager writes to a cloud file this one shares.
    try DatabaseQueue(path: cloudPath).write { db in
      try db.execute(
        sql: "INSERT INTO cloud_log (batch_id, replica, schema_version, payload) VALUES (?, ?, ?, ?)",
        arguments: ["tablet:1", "tablet", 4, bytes])
    }

    let store = try TestBackend.memory.makeStore()
    let phone = Self.engine(store, cloud, "phone", schema: 3, seed: 1)
    #expect(try phone.sync().held == 1)
    let held = try #require(try phone.heldBatches().first)
    #expect(held.bytes.isEmpty)  // kept by reference: fetched again after an upgrade
    #expect(held.reason.contains("unknown kind 'pantries'"))
    // Even a device on schema 4 cannot read it: it stays held, and sync goes on.
    #expect(try Self.engine(store, cloud, "phone", schema: 4, seed: 1).sync().errors == 0)
    #expect(try phone.heldBatches().count == 1)
  }

  @Test func bytesThatAreNotABatchOfAKnownSchemaAreAnEntryToSetAside() throws {
    let junk = ChangeBatchCoding.entry(sequence: 1, bytes: Data("junk".utf8), location: "test")
    #expect(junk.damage?.contains("unknown format") == true)
    #expect(junk.held == nil)
    var bytes = ChangeBatchCoding.encode(ChangeBatch(id: "x:1", replica: "x", schemaVersion: 3, changes: []))
    bytes.append(0)
    let trailing = ChangeBatchCoding.entry(sequence: 2, bytes: bytes, location: "test")
    #expect(trailing.damage?.contains("1 bytes after the last change") == true)
    let readable = ChangeBatchCoding.entry(sequence: 3, bytes: bytes.dropLast(), location: "test")
    #expect(readable.damage == nil && readable.batch.id == "x:1")
  }

  @Test func aHeldBatchIsKeptByReferenceSoNoFloodOfThemGrowsTheStore() throws {
    let cloud = InMemoryCloud(identifier: "household")
    let clock = TickingClock()
    let stamp = Stamp(time: 1, counter: 0, replica: "tablet")
    // Five batches of a newer schema, each with a 1 MB text a v3 device cannot judge.
    for number in 1...5 {
      let change = RecordChange(
        kind: .category, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
        fields: ["displayName": StampedValue(value: .text(String(repeating: "x", count: 1 << 20)), stamp: stamp)])
      _ = try cloud.push(ChangeBatch(id: "tablet:\(number)", replica: "tablet", schemaVersion: 9, changes: [change]))
    }
    let store = try TestBackend.memory.makeStore(clock: clock.now)
    let phone = Self.engine(store, cloud, "phone", schema: 3, seed: 1)
    #expect(try phone.sync().held == 5)
    let held = try phone.heldBatches()
    #expect(held.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(held.allSatisfy { $0.bytes.isEmpty })
    let kept = try store.read { reader in
      try reader.metadata(forKeys: try reader.metadataKeys(withPrefix: "sync.held/")).values.map(\.utf8.count).reduce(0, +)
    }
    #expect(kept < 5_000)
  }
}
