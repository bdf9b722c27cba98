import Foundation
import Model
import Persistence
import Repositories
import SyncMemory
import TestSupport
import Testing

@testable import Sync

/// One time authority: where the cloud keeps time (a server), every device stamps and
/// checks on the cloud's clock, so a device whose own clock is a year behind or ahead takes
/// full part from its first sync, and a later write wins by when it happened, not by whose
/// clock runs fast. Each household here is one true clock (the cloud's) and devices whose
/// clocks are that clock shifted.
@Suite("One time authority")
struct TimeAuthorityTests {
  struct Household {
    /// The true clock, which a test moves; each device reads it shifted.
    let clock = HostileBatchTests.SettableClock()
    let cloud: InMemoryCloud
    var devices: [(library: Library, engine: SyncEngine)] = []

    /// Devices whose clocks are the true clock moved by `shifts` (seconds).
    init(_ backend: TestBackend, shifts: [TimeInterval], authority: Bool = true) throws {
      let clock = clock
      let reading: @Sendable () -> Date = { clock.now() }
      cloud = InMemoryCloud(identifier: "household", authority: authority ? reading : nil)
      for (index, shift) in shifts.enumerated() {
        let deviceClock: @Sendable () -> Date = { clock.now().addingTimeInterval(shift) }
        let store = try backend.makeStore(clock: deviceClock)
        devices.append(
          (
            Library(store: store, now: deviceClock, ids: .seeded(UInt64(200 + index))),
            SyncEngine(store: store, cloud: cloud, deviceName: "device-\(index)", replicaIDs: .seeded(UInt64(index + 1)))
          ))
      }
    }

    func categories(_ index: Int) throws -> [String] { try devices[index].library.categories.all().map(\.displayName).sorted() }
    func engine(_ index: Int) -> SyncEngine { devices[index].engine }
    func syncAll() throws {
      for index in devices.indices { try engine(index).sync() }
    }
    /// The latest stamp time in the cloud's log.
    func latestStampInLog() throws -> Int64 {
      try cloud.pull(after: 0, limit: 10_000).flatMap(\.batch.changes).flatMap(\.fields.values).map(\.stamp.time).max() ?? .min
    }
  }

  static let year: TimeInterval = 365 * 86_400

  @Test(arguments: TestBackend.allCases)
  func devicesAYearBehindAndAYearAheadTakeFullPartFromTheirFirstSync(_ backend: TestBackend) throws {
    let house = try Household(backend, shifts: [0, -Self.year, Self.year])
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    // The device a year ahead writes before it ever synced: its write is stamped on the
    // authority's clock once it learns it, never a year in the future.
    _ = try house.devices[2].library.categories.getOrCreate("Dairy")
    try house.syncAll()
    #expect(try house.latestStampInLog() <= house.clock.now().millisecondsSince1970)

    // Renames in true-time order: the device ahead first, then the one behind. The later
    // rename wins, whichever clock looked later.
    house.clock.advance(by: 60)
    _ = try house.devices[2].library.categories.rename(produce.id.uuidString, to: "Greens")
    try house.engine(2).sync()
    house.clock.advance(by: 60)
    try house.engine(1).sync()
    #expect(try house.categories(1) == ["Dairy", "Greens"])  // a year behind, it still takes the change
    _ = try house.devices[1].library.categories.rename(produce.id.uuidString, to: "Vegetables")
    try house.syncAll()
    try house.syncAll()

    for index in house.devices.indices {
      #expect(try house.categories(index) == ["Dairy", "Vegetables"], "device \(index)")
      #expect(try house.engine(index).setAsideChanges().isEmpty, "device \(index)")
    }
    #expect(try house.engine(1).clockOffset() ?? 0 > Self.year - 60)
    #expect(try house.engine(2).clockOffset() ?? 0 < -Self.year + 60)
    #expect(try house.engine(0).clockOffset() == 0)
  }

  /// The same household with no authority: each device checks against its own clock, so
  /// the device a year behind sets the others' changes aside (they wait for its clock).
  /// This is what the authority changes.
  @Test func withoutAnAuthorityADeviceBehindWaitsForItsOwnClock() throws {
    let house = try Household(.memory, shifts: [0, -Self.year], authority: false)
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    #expect(try house.engine(1).sync().setAside == 1)
    #expect(try house.engine(1).setAsideChanges().first?.code == "clock-ahead")
    #expect(try house.categories(1).isEmpty)
  }

  /// Two devices each within four minutes of true time, one slow and one fast: an edit of
  /// the true-clock device reaches the slow one at its next sync, and the fast one's edits
  /// do not outrank a later edit for the minutes its clock runs ahead.
  @Test(arguments: TestBackend.allCases)
  func devicesMinutesOffApplyEachOthersEditsAtTheirNextSync(_ backend: TestBackend) throws {
    let house = try Household(backend, shifts: [0, -240, 240])
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.syncAll()
    _ = try house.devices[2].library.categories.rename(produce.id.uuidString, to: "Fast")
    try house.engine(2).sync()
    house.clock.advance(by: 30)
    _ = try house.devices[0].library.categories.rename(produce.id.uuidString, to: "True")
    try house.engine(0).sync()
    let report = try house.engine(1).sync()
    #expect(report.setAside == 0)
    #expect(try house.categories(1) == ["True"])  // 30 s later in true time: it wins
    try house.syncAll()
    for index in house.devices.indices { #expect(try house.categories(index) == ["True"], "device \(index)") }
  }

  /// An offset within half the allowed skew is not applied: a device whose clock agrees
  /// with the authority stamps on its own clock, and the noise of readings does not move
  /// its stamps from one sync to the next.
  @Test func aClockWithinToleranceKeepsNoOffset() throws {
    let house = try Household(.memory, shifts: [ChangeRules.defaultAllowedSkew / 4])
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    #expect(try house.engine(0).clockOffset() == 0)
  }

  @Test(arguments: TestBackend.allCases)
  func stampsBeforeTheEarliestTimeAreSetAsideForGood(_ backend: TestBackend) throws {
    let house = try Household(backend, shifts: [0])
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    let evil = "evil-replica"
    let bottom = Stamp(time: .min, counter: 0, replica: evil)
    let delete = RecordChange(
      kind: .category, id: produce.id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: [RecordChange.existsField: StampedValue(value: .bool(false), stamp: bottom)])
    let justBelow = Stamp(time: Stamp.earliestTime - 1, counter: 0, replica: evil)
    let create = RecordChange(
      kind: .category, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: [
        RecordChange.existsField: StampedValue(value: .bool(true), stamp: justBelow),
        "displayName": StampedValue(value: .text("Ancient"), stamp: justBelow),
        "normalizedName": StampedValue(value: .text("ancient"), stamp: justBelow),
      ])
    _ = try house.cloud.push(ChangeBatch(id: "\(evil):1-1", replica: evil, schemaVersion: 3, changes: [delete, create]))
    #expect(try house.engine(0).sync().setAside == 2)
    let aside = try house.engine(0).setAsideChanges()
    #expect(aside.map(\.code) == ["stamp-invalid", "stamp-invalid"])
    #expect(aside.allSatisfy { $0.reason.contains("before the earliest") && $0.waitsUntil == nil })
    #expect(try house.categories(0) == ["Produce"])
    #expect(try SyncVerifier(store: house.devices[0].library.store).verify().differences.isEmpty)

    // The floor admits every creation stamp of a write made since 1900.
    let rules = ChangeRules(now: Fixtures.epoch)
    let creation = Stamp.creation(evil, at: Date(timeIntervalSince1970: -2_208_988_800).millisecondsSince1970)
    #expect(rules.stampProblem(creation, replica: evil) == nil)
    #expect(rules.stampProblem(Stamp(time: creation.time - 1, counter: 0, replica: evil), replica: evil)?.code == .foreignStamp)
  }
}
