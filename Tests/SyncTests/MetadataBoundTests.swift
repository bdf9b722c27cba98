import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// A record's dates join without stamps — creation by min, update by max — so a date from
/// the future that got in would stick. The rules hold both to the time authority's clock
/// plus the skew, and an honest device whose clock runs ahead dates its records on the
/// authority's clock, so its changes pass.
@Suite("Record metadata bounds")
struct MetadataBoundTests {
  typealias House = HostileBatchTests.Household

  static let farFuture = Date(timeIntervalSince1970: 253_402_000_000)  // 9999-12-…

  @Test(arguments: TestBackend.allCases)
  func aDateFromTheFutureIsSetAsideAndDoesNotStick(_ backend: TestBackend) throws {
    let house = try House(backend, devices: 2)
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    var future = HostileBatchTests.category("Produce", id: produce.id, at: HostileBatchTests.pastTime)
    future = RecordChange(
      kind: future.kind, id: future.id, createdAt: Fixtures.epoch, updatedAt: Self.farFuture, ownerID: "local",
      sharingScope: .private, fields: [:])
    let fine = HostileBatchTests.category("Bakery", at: HostileBatchTests.pastTime)
    _ = try house.cloud.push(
      ChangeBatch(id: "\(HostileBatchTests.evil):1-1", replica: HostileBatchTests.evil, schemaVersion: 5, changes: [future, fine]))

    for index in 0..<2 {
      #expect(try house.engine(index).sync().setAside == 1, "device \(index)")
      let aside = try #require(try house.engine(index).setAsideChanges().first)
      #expect(aside.code == "clock-ahead" && aside.field == "updatedAt", "device \(index): \(aside)")
      #expect(aside.reason.contains("ahead of this clock"))
      let row = try #require(try house.devices[index].library.store.read { try $0.record(.category, id: produce.id) })
      #expect(row.meta.updatedAt < Fixtures.epoch.addingTimeInterval(3_600), "device \(index)")
    }
    #expect(try house.categories(0) == ["Bakery", "Produce"])
  }

  /// Generated dates around the bound: a change is refused exactly when a date lies more
  /// than the skew ahead of the checker's clock.
  @Test func datesAreRefusedExactlyPastTheSkew() {
    let rules = ChangeRules(now: Fixtures.epoch)
    var random = SeededGenerator(seed: 48)
    for _ in 0..<500 {
      let offset = Double(Int64.random(in: -20_000...20_000, using: &random)) / 1000
      let date = Fixtures.epoch.addingTimeInterval(offset)
      let createdFirst = Bool.random(using: &random)
      let change = RecordChange(
        kind: .tag, id: UUID(), createdAt: createdFirst ? date : Fixtures.epoch, updatedAt: createdFirst ? Fixtures.epoch : date,
        ownerID: "local", sharingScope: .private, fields: [:])
      let violation = rules.violation(in: change, replica: "r")
      let past = date.timeIntervalSince1970 * 1000 > Double(rules.latestStampTime)
      #expect((violation?.code == .clockAhead) == past, "\(offset) s: \(String(describing: violation))")
      #expect(violation == nil || violation?.field == (createdFirst ? "createdAt" : "updatedAt"))
    }
  }

  /// A device a year ahead dates its records on the authority's clock: every device shows
  /// the same dates, none later than the authority's time.
  @Test(arguments: TestBackend.allCases)
  func aDeviceAheadDatesItsRecordsOnTheAuthoritysClock(_ backend: TestBackend) throws {
    let house = try TimeAuthorityTests.Household(backend, shifts: [0, TimeAuthorityTests.year])
    try house.syncAll()
    _ = try house.devices[1].library.categories.getOrCreate("Dairy")
    try house.syncAll()
    try house.syncAll()
    #expect(try house.engine(0).setAsideChanges().isEmpty)
    let rows = try house.devices.map { device in
      try device.library.store.dump().first { $0.kind == .category && $0["displayName"].text == "Dairy" }
    }
    let shown = try rows.map { try #require($0) }
    #expect(shown[0].meta == shown[1].meta)
    #expect(shown[0].meta.updatedAt <= house.clock.now())
    #expect(shown[0].meta.createdAt <= house.clock.now())
  }
}
