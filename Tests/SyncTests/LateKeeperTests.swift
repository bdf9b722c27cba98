import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// Another replica merged a loser into its keeper and pushed the loser (with its merge
/// edge) before the keeper's own batch: a replica that receives them in that order shows
/// the same entity as one that received the keeper first.
@Suite("Merges whose keeper arrives later")
struct LateKeeperTests {
  static let keeper = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
  static let loser = UUID(uuidString: "ffffffff-0000-4000-8000-000000000002")!

  /// A category "Produce" as a replica pushes it: every field stamped at `time`; a loser
  /// also carries its deletion and its redirect to the keeper.
  static func produce(_ id: UUID, sortOrder: Int64, time: Int64, replica: String, mergedInto keeper: UUID? = nil) -> RecordChange {
    let stamp = Stamp(time: time, counter: 0, replica: replica)
    var fields: [String: StampedValue] = [
      "displayName": StampedValue(value: .text("Produce"), stamp: stamp),
      "normalizedName": StampedValue(value: .text("produce"), stamp: stamp),
      "sortOrder": StampedValue(value: .integer(sortOrder), stamp: stamp),
    ]
    if let keeper {
      fields[RecordChange.deletedField] = StampedValue(value: .timestamp(Fixtures.epoch), stamp: stamp)
      fields[RecordChange.redirectField] = StampedValue(value: .reference(keeper), stamp: stamp)
    }
    return RecordChange(
      kind: .category, id: id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: fields
    )
  }

  @Test(arguments: TestBackend.allCases)
  func theLosersNewerValuesAreFoldedInWhenTheKeeperArrives(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["late"])
    let late = world["late"].library
    // The loser was written later (sort order 28) than the keeper (26).
    _ = try world.cloud.push(
      ChangeBatch(
        id: "b:1-1", replica: "b", schemaVersion: 3,
        changes: [
          Self.produce(Self.loser, sortOrder: 28, time: 2_000, replica: "b", mergedInto: Self.keeper)
        ]))
    try world.sync("late")
    // The edge names the keeper: the entity is shown under the keeper's id at once.
    #expect(try late.categories.all().map(\.id) == [Self.keeper])
    #expect(try late.categories.find("produce")?.sortOrder == 28)

    _ = try world.cloud.push(
      ChangeBatch(
        id: "a:1-1", replica: "a", schemaVersion: 3,
        changes: [
          Self.produce(Self.keeper, sortOrder: 26, time: 1_000, replica: "a")
        ]))
    try world.sync("late")
    let produce = try #require(try late.categories.find("produce"))
    #expect(produce.id == Self.keeper)
    #expect(produce.sortOrder == 28)
    #expect(try late.categories.all().count == 1)

    // A replica that had the keeper when the merge arrived agrees.
    let early = try SyncWorld(backend, devices: ["early"])
    _ = try early.cloud.push(
      ChangeBatch(
        id: "a:1-1", replica: "a", schemaVersion: 3,
        changes: [
          Self.produce(Self.keeper, sortOrder: 26, time: 1_000, replica: "a")
        ]))
    try early.sync("early")
    _ = try early.cloud.push(
      ChangeBatch(
        id: "b:1-1", replica: "b", schemaVersion: 3,
        changes: [
          Self.produce(Self.loser, sortOrder: 28, time: 2_000, replica: "b", mergedInto: Self.keeper)
        ]))
    try early.sync("early")
    #expect(try early["early"].library.categories.find("produce")?.sortOrder == 28)
  }

  @Test(arguments: TestBackend.allCases)
  func aRecordRenamedOntoAnotherKeyIsStoredWithTheNameItsStampsDescribe(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let keeper = Self.keeper, renamed = Self.loser
    func category(_ id: UUID, _ name: String, time: Int64) -> RecordChange {
      let stamp = Stamp(time: time, counter: 0, replica: "b")
      return RecordChange(
        kind: .category, id: id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
        fields: [
          "displayName": StampedValue(value: .text(name), stamp: stamp),
          "normalizedName": StampedValue(value: .text(name.lowercased()), stamp: stamp),
          "sortOrder": StampedValue(value: .integer(0), stamp: stamp),
        ]
      )
    }
    _ = try world.cloud.push(
      ChangeBatch(
        id: "b:1-2", replica: "b", schemaVersion: 3,
        changes: [
          category(keeper, "Veg", time: 1_000), category(renamed, "Snacks", time: 1_000),
        ]))
    try world.sync("phone")
    // "Snacks" is renamed "VEG" elsewhere: the phone merges it into the smaller "Veg".
    _ = try world.cloud.push(ChangeBatch(id: "b:3-3", replica: "b", schemaVersion: 3, changes: [category(renamed, "VEG", time: 2_000)]))
    try world.sync("phone")
    let store = world["phone"].store
    let (kept, merged) = try store.read { (reader) throws in
      (try reader.record(.category, id: keeper), try reader.record(.category, id: renamed))
    }
    #expect(kept?["displayName"] == .text("VEG"))
    #expect(merged?.meta.isLive == false)
    // The union is the view's, not an edge: a writer that renames one of the two without
    // having seen them meet (it pushed no edge) splits them again, as it sees them.
    _ = try world.cloud.push(ChangeBatch(id: "b:4-4", replica: "b", schemaVersion: 3, changes: [category(keeper, "Greens", time: 3_000)]))
    let report = try world.sync("phone")
    #expect(report.exported == 0, "the phone derived no edge to push: \(report)")
    #expect(try world["phone"].library.categories.all().map(\.displayName).sorted() == ["Greens", "VEG"])
  }
}
