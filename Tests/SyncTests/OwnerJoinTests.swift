import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// A record's owner is whoever created it: it travels with the existence register a
/// create, delete or re-create writes, and the higher existence register brings its owner.
/// A change that only edits fields cannot claim a record, whatever owner it names, and no
/// owner sticks because of how its name sorts.
@Suite("Record owner")
struct OwnerJoinTests {
  typealias House = HostileBatchTests.Household

  static func state(owner: String, existence: StampedValue?, name: StampedValue? = nil) -> RecordState {
    var state = RecordState(
      kind: .category, id: JoinLawTests.id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: owner, sharingScope: .private)
    if let existence { state.write(RecordState.existsField, existence) }
    if let name { state.write("displayName", name) }
    return state
  }

  static func stamped(_ value: FieldValue, at time: Int64, _ replica: String = "a") -> StampedValue {
    StampedValue(value: value, stamp: Stamp(time: time, counter: 0, replica: replica))
  }

  @Test func anEditCannotClaimARecordAndALaterCreationDoes() {
    let created = Self.state(owner: "alex", existence: Self.stamped(.bool(true), at: 1))
    let edit = Self.state(owner: "\u{10FFFD}zz", existence: nil, name: Self.stamped(.text("Veg"), at: 9, "b"))
    #expect(JoinLawTests.joined(created, edit).ownerID == "alex")
    #expect(JoinLawTests.joined(edit, created).ownerID == "alex")
    #expect(JoinLawTests.joined(edit, created)["displayName"]?.value == .text("Veg"), "the edit's field still joins")

    let recreated = Self.state(owner: "sam", existence: Self.stamped(.bool(true), at: 5, "c"))
    #expect(JoinLawTests.joined(created, edit, recreated).ownerID == "sam")
    #expect(JoinLawTests.joined(recreated, edit, created).ownerID == "sam")
    let deleted = Self.state(owner: "sam", existence: Self.stamped(.bool(false), at: 7, "c"))
    #expect(JoinLawTests.joined(created, deleted).ownerID == "sam", "a delete keeps the owner its device showed")
  }

  /// Generated copies of one record: whatever order they join in, the owner is the one
  /// sent with the highest existence register (the greater owner among equal ones).
  @Test func theOwnerIsTheOneSentWithTheHighestExistenceRegister() {
    var random = SeededGenerator(seed: 4_848)
    let owners = ["local", "alex", "zz", "\u{10FFFD}"]
    for round in 0..<300 {
      let copies = (0..<4).map { _ -> RecordState in
        let existence: StampedValue? =
          random.next() % 3 == 0
          ? nil : Self.stamped(.bool(random.next() % 2 == 0), at: Int64(random.next() % 4), ["a", "b"][Int(random.next() % 2)])
        return Self.state(owner: owners[Int(random.next() % 4)], existence: existence)
      }
      // The expected owner, found apart from the join: the highest existence register any
      // copy holds, then the greatest owner among the copies that hold exactly it.
      let highest = copies.compactMap { $0[RecordState.existsField] }.reduce(nil) { RecordState.join($0, $1) }
      let expected = copies.filter { $0[RecordState.existsField] == highest }.map(\.ownerID).max()!
      var forward = copies[0], backward = copies[3]
      for copy in copies.dropFirst() { forward.join(copy) }
      for copy in copies.reversed().dropFirst() { backward.join(copy) }
      #expect(forward.ownerID == expected, "round \(round)")
      #expect(backward.ownerID == expected, "round \(round)")
    }
  }

  /// Through the cloud: a member pushes an edit of Produce naming an owner that sorts last;
  /// every device keeps the creator's owner, and the edit's value still arrives.
  @Test(arguments: TestBackend.allCases)
  func anEditNamingAnotherOwnerLeavesTheOwnerOnEveryDevice(_ backend: TestBackend) throws {
    let house = try House(backend, devices: 2)
    let produce = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    let stamp = Stamp(time: HostileBatchTests.pastTime, counter: 0, replica: HostileBatchTests.evil)
    let edit = RecordChange(
      kind: .category, id: produce.id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "zzzz-claimed",
      sharingScope: .private, fields: ["sortOrder": StampedValue(value: .integer(7), stamp: stamp)])
    _ = try house.cloud.push(
      ChangeBatch(id: "\(HostileBatchTests.evil):1-1", replica: HostileBatchTests.evil, schemaVersion: 5, changes: [edit]))
    for index in 0..<2 {
      try house.engine(index).sync()
      let row = try #require(try house.devices[index].library.store.read { try $0.record(.category, id: produce.id) })
      #expect(row.meta.ownerID == RecordMetadata.localOwner, "device \(index)")
      #expect(row["sortOrder"] == .integer(7), "device \(index)")
    }
  }
}
