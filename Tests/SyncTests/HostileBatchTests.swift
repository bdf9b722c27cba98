import Foundation
import GRDB
import Model
import Persistence
import Repositories
import SyncMemory
import SyncSQLite
import Synchronization
import TestSupport
import Testing

@testable import Sync

/// A device trusts no log: a change another device pushed that breaks the rules — whether a
/// server that did not check let it in, or it sits in a log written before the server
/// checked — is set aside on pull, everything else applies, and the device's own pushes go
/// on. Each test pushes what a hostile or broken device would, straight into the cloud.
@Suite("Hostile batches on pull")
struct HostileBatchTests {
  /// A clock a test can move.
  final class SettableClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Fixtures.epoch) { current = Mutex(start) }
    func now() -> Date {
      current.withLock { value in
        value.addTimeInterval(0.001)
        return value
      }
    }
    func advance(by seconds: TimeInterval) { current.withLock { $0.addTimeInterval(seconds) } }
  }

  struct Household {
    let clock = SettableClock()
    let cloud: any CloudStore
    var devices: [(library: Library, engine: SyncEngine)] = []

    init(_ backend: TestBackend, devices count: Int, cloud: (any CloudStore)? = nil) throws {
      self.cloud = cloud ?? InMemoryCloud(identifier: "household")
      for index in 0..<count {
        let store = try backend.makeStore(clock: clock.now)
        devices.append(
          (
            Library(store: store, now: clock.now, ids: .seeded(UInt64(100 + index))),
            SyncEngine(store: store, cloud: self.cloud, deviceName: "device-\(index)", replicaIDs: .seeded(UInt64(index + 1)))
          ))
      }
    }

    func categories(_ index: Int) throws -> [String] { try devices[index].library.categories.all().map(\.displayName).sorted() }
    func engine(_ index: Int) -> SyncEngine { devices[index].engine }
  }

  static let evil = "evil-replica"

  /// A category change as an honest device would send it, with `edit` applied.
  static func category(
    _ name: String, id: UUID = UUID(), at time: Int64, replica: String = evil, createdAt: Date = Fixtures.epoch,
    extra: [String: StampedValue] = [:]
  ) -> RecordChange {
    let stamp = Stamp(time: time, counter: 0, replica: replica)
    var fields: [String: StampedValue] = [
      RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
      "displayName": StampedValue(value: .text(name), stamp: stamp),
      "normalizedName": StampedValue(value: .text(name.lowercased()), stamp: stamp),
    ]
    fields.merge(extra) { $1 }
    return RecordChange(
      kind: .category, id: id, createdAt: createdAt, updatedAt: createdAt, ownerID: "local", sharingScope: .private, fields: fields)
  }

  static var pastTime: Int64 { Fixtures.epoch.millisecondsSince1970 - 60_000 }

  @Test(arguments: TestBackend.allCases)
  func aNaNCreationTimeIsSetAsideAndEveryDeviceOldOrNewStillSyncs(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 3)
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    let poisoned = Self.category("Poison", at: Self.pastTime, createdAt: Date(timeIntervalSince1970: .nan))
    let fine = Self.category("Bakery", at: Self.pastTime)
    _ = try house.cloud.push(ChangeBatch(id: "\(Self.evil):1-1", replica: Self.evil, schemaVersion: 3, changes: [poisoned, fine]))
    _ = try house.devices[1].library.categories.getOrCreate("Dairy")

    let report = try house.engine(1).sync()
    #expect(report.setAside == 1)
    #expect(report.exported == 1)  // its own change still left
    let aside = try #require(try house.engine(1).setAsideChanges().first)
    #expect(aside.field == "createdAt" && aside.code == "change-invalid" && aside.index == 0)
    #expect(aside.reason.contains("not a finite date"))
    try house.engine(0).sync()
    try house.engine(2).sync()  // a new device
    #expect(try house.categories(0) == ["Bakery", "Dairy", "Produce"])
    #expect(try house.categories(1) == house.categories(0))
    #expect(try house.categories(2) == house.categories(0))
    #expect(try house.engine(1).sync().setAside == 0)  // set aside once, not again at each sync
  }

  @Test(arguments: TestBackend.allCases)
  func anEndOfTimeStampNeitherTrapsNorWins(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 2)
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    let end = Stamp(time: .max, counter: .max, replica: Self.evil)
    let rename = RecordChange(
      kind: .category, id: produce.id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: [
        "displayName": StampedValue(value: .text("Forever"), stamp: end),
        "normalizedName": StampedValue(value: .text("forever"), stamp: end),
      ])
    _ = try house.cloud.push(ChangeBatch(id: "\(Self.evil):1-1", replica: Self.evil, schemaVersion: 3, changes: [rename]))
    for index in 0..<2 {
      #expect(try house.engine(index).sync().setAside == 1)
      // A local write after receiving it, then another sync: the clock must not overflow.
      _ = try house.devices[index].library.categories.getOrCreate("Dairy \(index)")
      try house.engine(index).sync()
      #expect(try house.engine(index).setAsideChanges().first?.code == "stamp-invalid")
    }
    try house.engine(0).sync()
    #expect(try house.categories(0) == ["Dairy 0", "Dairy 1", "Produce"])
    #expect(try house.categories(1) == house.categories(0))
  }

  @Test func aClockAnEarlierVersionLeftAtTheEndOfTimeIsPulledBackInsteadOfTrapping() throws {
    let house = try Household(.memory, devices: 1)
    try house.engine(0).sync()
    try house.devices[0].library.store.write(origin: .sync) { writer in
      try writer.setMetadata("\(Int64.max):\(Int32.max)", forKey: ReplicaKeys.clock)
    }
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    let clock = try #require(try house.devices[0].library.store.read { try $0.metadata(forKey: ReplicaKeys.clock) })
    let time = try #require(Int64(clock.split(separator: ":")[0]))
    #expect(time <= house.clock.now().millisecondsSince1970 + Int64(ChangeRules.defaultAllowedSkew * 1000))
  }

  @Test(arguments: TestBackend.allCases)
  func writesMadeWhileThisDevicesClockRanAheadAreRestampedOnceItIsSetRight(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 2)
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    house.clock.advance(by: 86_400)  // the phone's clock jumps a day ahead…
    _ = try house.devices[0].library.categories.rename("Produce", to: "Fruit & Veg")
    _ = try house.devices[0].library.categories.getOrCreate("Bakery")
    house.clock.advance(by: -86_400)  // …and is set right before it syncs
    _ = try house.devices[1].library.categories.rename("Produce", to: "Greens")  // a later edit elsewhere
    try house.engine(1).sync()
    try house.engine(0).sync()
    let limit = house.clock.now().millisecondsSince1970 + Int64(ChangeRules.defaultAllowedSkew * 1000)
    for entry in try house.cloud.pull(after: 0, limit: 100) {
      for change in entry.batch.changes {
        for (name, value) in change.fields { #expect(value.stamp.time <= limit, "\(entry.batch.id) \(name)") }
      }
    }
    try house.engine(1).sync()
    #expect(try house.engine(1).setAsideChanges().isEmpty)
    #expect(try house.categories(0) == house.categories(1))
    #expect(try house.categories(0) == ["Bakery", "Fruit & Veg"])  // restamped now: after the other rename
  }

  @Test func theHybridClockNeitherOverflowsNorFollowsAStampPastItsLimit() {
    var clock = HybridLogicalClock()
    clock.time = 1_000
    clock.counter = Stamp.maximumCounter
    let reading = clock.tick(physical: 900)
    #expect(reading.time == 1_001 && reading.counter == 0)
    var ended = HybridLogicalClock()
    ended.time = .max
    ended.counter = .max
    #expect(ended.tick(physical: 5).time == .max)
    var receiving = HybridLogicalClock()
    receiving.receive(Stamp(time: 10_000, counter: 3, replica: "a"), limit: 5_000)
    #expect(receiving.time == 0)
    receiving.receive(Stamp(time: 4_000, counter: .max, replica: "a"), limit: 5_000)
    #expect(receiving.time == 0)
    receiving.receive(Stamp(time: 4_000, counter: 3, replica: "a"), limit: 5_000)
    #expect(receiving.time == 4_000 && receiving.counter == 3)
  }

  @Test(arguments: TestBackend.allCases)
  func aStampAheadOfThisClockWaitsAsideUntilTheClockReachesIt(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 1)
    try house.engine(0).sync()
    let hourAhead = house.clock.now().millisecondsSince1970 + 3_600_000
    let tablet = Self.category("Tablet", at: hourAhead, replica: "tablet")
    _ = try house.cloud.push(ChangeBatch(id: "tablet:1-1", replica: "tablet", schemaVersion: 3, changes: [tablet]))
    #expect(try house.engine(0).sync().setAside == 1)
    let waiting = try #require(try house.engine(0).setAsideChanges().first)
    #expect(waiting.code == "clock-ahead" && waiting.waitsUntil == hourAhead)
    #expect(try house.categories(0).isEmpty)  // no silent win from the future
    house.clock.advance(by: 3_600)
    try house.engine(0).sync()
    #expect(try house.categories(0) == ["Tablet"])
    #expect(try house.engine(0).setAsideChanges().isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func oversizedControlAndMalformedValuesAreSetAsideOneByOne(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 2)
    let t = Self.pastTime
    let stamp = Stamp(time: t, counter: 0, replica: Self.evil)
    func value(_ field: String, _ value: FieldValue) -> [String: StampedValue] { [field: StampedValue(value: value, stamp: stamp)] }
    func stamped(_ field: String, _ text: String, replica: String) -> [String: StampedValue] {
      [field: StampedValue(value: .text(text), stamp: Stamp(time: t, counter: 0, replica: replica))]
    }
    let template = RecordChange(
      kind: .ingredientTemplate, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local",
      sharingScope: .private,
      fields: [
        RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
        "displayName": StampedValue(value: .text("Rice"), stamp: stamp), "canonicalName": StampedValue(value: .text("rice"), stamp: stamp),
        "gramsPerCup": StampedValue(value: .real(.infinity), stamp: stamp),
      ])
    let selfMerge = UUID()
    let cases: [(RecordChange, String, String)] = [
      (Self.category(String(repeating: "a", count: 3_000_000), at: t), "displayName", "once expanded"),
      (Self.category(String(repeating: "a", count: 300_000), at: t), "displayName", "bytes long"),
      (Self.category("Pro\u{1B}duce", at: t), "displayName", "control character (U+001B)"),
      (Self.category("Pro\u{202E}ecudorp", at: t), "displayName", "bidi override (U+202E)"),
      (Self.category("Tools", at: t, extra: value("colour", .text("red"))), "colour", "is not a field of category"),
      (Self.category("Fish", at: t, extra: value("sortOrder", .text("first"))), "sortOrder", "wrong type"),
      (Self.category("Meat", at: t, extra: value("sortOrder", .integer(-5))), "sortOrder", "outside"),
      (template, "gramsPerCup", "not a finite number"),
      (
        Self.category("Loop", id: selfMerge, at: t, extra: value("@merge:" + selfMerge.uuidString.lowercased(), .reference(selfMerge))),
        "@merge:" + selfMerge.uuidString.lowercased(), "into itself"
      ),
      (
        Self.category("Other", at: t, extra: stamped("displayName", "Other", replica: "phone")), "displayName", "not of the batch's replica"
      ),
      (Self.category("Migrated", at: t, extra: stamped("displayName", "Migrated", replica: "")), "displayName", "not a migration's"),
    ]
    let good = Self.category("Bakery", at: t)
    _ = try house.cloud.push(ChangeBatch(id: "\(Self.evil):1-9", replica: Self.evil, schemaVersion: 3, changes: cases.map(\.0) + [good]))
    let report = try house.engine(0).sync()
    #expect(report.setAside == cases.count)
    let aside = try house.engine(0).setAsideChanges()
    #expect(aside.map(\.index) == Array(0..<cases.count))
    for (item, expected) in zip(aside, cases) {
      #expect(item.field == expected.1, "change \(item.index ?? -1)")
      #expect(item.reason.contains(expected.2), "change \(item.index ?? -1): \(item.reason)")
      #expect(item.summary.utf8.count < 1_000)  // a hostile text is never kept whole
    }
    #expect(try house.categories(0) == ["Bakery"])
    try house.engine(1).sync()
    #expect(try house.categories(1) == ["Bakery"])
  }

  @Test(arguments: TestBackend.allCases)
  func aBatchInThisDevicesNameThatItDidNotPushIsJoinedSoTheHouseholdDoesNotFork(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 2)
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    let victim = try house.engine(0).replicaID()
    // A token that took over device 0's replica (an earlier server allowed it) pushes.
    let impostor = Self.category("Impostor", at: Self.pastTime, replica: victim)
    _ = try house.cloud.push(ChangeBatch(id: "\(victim):90-99", replica: victim, schemaVersion: 3, changes: [impostor]))
    try house.engine(1).sync()
    try house.engine(0).sync()
    #expect(try house.categories(1) == ["Impostor", "Produce"])
    #expect(try house.categories(0) == house.categories(1))
    // Its own batches it still skips, and it keeps no marker of them once pulled back.
    let sent = try house.devices[0].library.store.read { try $0.metadataKeys(withPrefix: ReplicaKeys.sentPrefix) }
    #expect(sent.isEmpty)
  }

  @Test func damagedBytesInASharedCloudFileAreSetAsideAndTheBatchesAfterThemStillArrive() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path
    let cloud = try SQLiteCloud(path: path)
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: "INSERT INTO cloud_log (batch_id, replica, schema_version, payload) VALUES (?, ?, ?, ?)",
        arguments: ["junk:1", "junk", 3, Data([0x00, 0x46, 0x42, 0x01, 0xFF, 0xFF])])
    }
    let house = try Household(.sqlite, devices: 2, cloud: cloud)
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    let report = try house.engine(1).sync()
    #expect(report.setAside == 1)
    let aside = try #require(try house.engine(1).setAsideChanges().first)
    #expect(aside.code == "batch-unreadable" && aside.index == nil && aside.sequence == 1)
    #expect(try house.categories(1) == ["Produce"])
  }

  @Test func aRetirementNoticeMakesEveryDeviceForgetTheHeldBatch() throws {
    let house = try Household(.memory, devices: 1)
    let newer = Self.category("Newer", at: Self.pastTime, replica: "tablet")
    _ = try house.cloud.push(ChangeBatch(id: "tablet:1-1", replica: "tablet", schemaVersion: 9, changes: [newer]))
    #expect(try house.engine(0).sync().held == 1)
    _ = try house.cloud.push(ChangeBatch(id: ChangeBatch.retirementID(of: 1), replica: "", schemaVersion: 3, changes: []))
    try house.engine(0).sync()
    #expect(try house.engine(0).heldBatches().isEmpty)
    #expect(try house.engine(0).setAsideChanges().isEmpty)
  }
}
