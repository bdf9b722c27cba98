import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// No data the rules allow can stop a refresh of the view: its bound grows with the records
/// it reaches, so a category holding more templates than any fixed bound is deleted, renamed
/// and shown on every device; and a page a device cannot apply never keeps its own changes
/// from the others.
@Suite("A refresh always finishes")
struct RefreshLivenessTests {
  static let tablet = "tablet-replica"

  /// Templates in `category` as the tablet would push them, in batches of at most 5,000.
  static func templates(_ count: Int, in category: UUID, at time: Int64) -> [ChangeBatch] {
    let stamp = Stamp(time: time, counter: 0, replica: tablet)
    let changes = (0..<count).map { index in
      let name = "Item \(index)"
      return RecordChange(
        kind: .ingredientTemplate, id: DeterministicID.make(kind: .ingredientTemplate, semanticKey: "item \(index)"),
        createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
        fields: [
          RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
          "displayName": StampedValue(value: .text(name), stamp: stamp),
          "canonicalName": StampedValue(value: .text("item \(index)"), stamp: stamp),
          "category": StampedValue(value: .reference(category), stamp: stamp),
        ])
    }
    return stride(from: 0, to: count, by: 5_000).map { start in
      let slice = Array(changes[start..<min(count, start + 5_000)])
      return ChangeBatch(id: "\(tablet):\(start + 1)-\(start + slice.count)", replica: tablet, schemaVersion: 3, changes: slice)
    }
  }

  /// 10,100 templates in Produce, then Produce deleted by an honest device: the deleting
  /// device's own refresh and every other device's pull finish (the fixed bound of
  /// 20 × the first queue + 10,000 steps stopped both), and every device shows the
  /// templates without a category.
  @Test func aCategoryWithMoreTemplatesThanAnyFixedBoundIsDeletedOnEveryDevice() throws {
    let house = try HostileBatchTests.Household(.memory, devices: 2)
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    for batch in Self.templates(10_100, in: produce.id, at: HostileBatchTests.pastTime) { _ = try house.cloud.push(batch) }
    try house.engine(0).sync()
    try house.engine(1).sync()
    #expect(try house.devices[1].library.ingredients.all().count == 10_100)

    _ = try house.devices[0].library.categories.delete("Produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    for index in 0..<2 {
      let library = house.devices[index].library
      #expect(try library.categories.all().isEmpty, "device \(index)")
      let templates = try library.ingredients.all()
      #expect(templates.count == 10_100 && templates.allSatisfy { $0.category == nil }, "device \(index)")
      #expect(try SyncVerifier(store: library.store).verify().isClean, "device \(index)")
    }
  }

  #if DEBUG
    /// A page whose refresh fails rolls back, but the device's own change, stamped before
    /// the pull, still reaches the cloud in the same sync.
    @Test(arguments: TestBackend.allCases)
    func aPullThatCannotBeAppliedStillPushesThisDevicesChanges(_ backend: TestBackend) throws {
      let house = try HostileBatchTests.Household(backend, devices: 2)
      _ = try house.devices[0].library.categories.getOrCreate("Produce")
      try house.engine(0).sync()
      _ = try house.devices[1].library.categories.getOrCreate("Dairy")
      #expect(throws: SyncViewError.self) {
        try SyncMutation.$active.withValue(.endlessRefresh) { try house.engine(1).sync() }
      }
      #expect(try house.devices[1].library.store.read { try $0.syncInteger(ReplicaKeys.token) } == 0, "the page rolled back")
      try house.engine(0).sync()
      #expect(try house.categories(0) == ["Dairy", "Produce"], "the change was pushed all the same")
      try house.engine(1).sync()
      #expect(try house.categories(1) == ["Dairy", "Produce"])
    }
  #endif
}
