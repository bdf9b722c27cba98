import Foundation
import Model
import Testing

@testable import Sync

/// Applying a batch is a join: idempotent, commutative and associative, checked on random
/// states drawn from a seed (printed on failure). Equal stamps with different values (the
/// fixed migration tier) still join the same both ways.
@Suite("The join's laws")
struct JoinLawTests {
  static let id = UUID(uuidString: "00000000-0000-4000-8000-0000000000aa")!

  /// A random state of one category: a few registers from three replicas and two tiers.
  static func randomState(_ random: inout SeededGenerator) -> RecordState {
    let replicas = ["a", "b", ""]
    var state = RecordState(
      kind: .category, id: id, createdAt: Date(timeIntervalSince1970: Double(random.next() % 5)),
      updatedAt: Date(timeIntervalSince1970: Double(random.next() % 5)), ownerID: ["local", "x"][Int(random.next() % 2)],
      sharingScope: random.next() % 2 == 0 ? .private : .shared
    )
    for field in ["displayName", "sortOrder", RecordState.existsField] where random.next() % 3 != 0 {
      let replica = replicas[Int(random.next() % 3)]
      let stamp = replica.isEmpty ? Stamp.migration : Stamp(time: Int64(random.next() % 3), counter: 0, replica: replica)
      let value: FieldValue =
        switch field {
        case "displayName": .text(["Produce", "Veg", "Fruit"][Int(random.next() % 3)])
        case "sortOrder": .integer(Int64(random.next() % 3))
        default: .bool(random.next() % 2 == 0)
        }
      state.write(field, StampedValue(value: value, stamp: stamp))
    }
    if random.next() % 3 == 0 {
      state.addEdge(
        to: UUID(uuidString: "00000000-0000-4000-8000-00000000000\(random.next() % 3)")!, stamp: Stamp(time: 1, counter: 0, replica: "a"))
    }
    return state
  }

  static func joined(_ first: RecordState, _ rest: RecordState...) -> RecordState {
    var state = first
    for other in rest { state.join(other) }
    return state
  }

  @Test(arguments: 1...200 as ClosedRange<UInt64>)
  func joinIsIdempotentCommutativeAndAssociative(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let a = Self.randomState(&random), b = Self.randomState(&random), c = Self.randomState(&random)
    #expect(Self.joined(a, a) == a, "seed \(seed): idempotent")
    #expect(Self.joined(a, b) == Self.joined(b, a), "seed \(seed): commutative")
    #expect(Self.joined(Self.joined(a, b), c) == Self.joined(a, Self.joined(b, c)), "seed \(seed): associative")
  }

  @Test func aLaterStampWinsAndEqualStampsAreOrderedByValue() {
    let early = StampedValue(value: .text("Veg"), stamp: Stamp(time: 1, counter: 0, replica: "b"))
    let late = StampedValue(value: .text("Produce"), stamp: Stamp(time: 2, counter: 0, replica: "a"))
    #expect(RecordState.join(early, late) == late)
    #expect(RecordState.join(late, early) == late)
    let one = StampedValue(value: .text("Corn"), stamp: .migration), other = StampedValue(value: .text("corn"), stamp: .migration)
    #expect(RecordState.join(one, other) == RecordState.join(other, one))
  }

  @Test func aCreationLosesToAnyRealWriteAndTheMigrationTiersLieBelowBoth() {
    let created = Stamp.creation("a", at: 1_800_000_000_000)
    #expect(created < Stamp(time: 1, counter: 0, replica: "b"))
    #expect(Stamp.creation("a", at: 1_000) < Stamp.creation("a", at: 2_000))
    #expect(Stamp.migration < Stamp.migrationMerge)
    #expect(Stamp.migrationMerge < Stamp.creation("a", at: 0))
  }

  /// Sharing scope is not a register (no command changes it after creation): the join takes
  /// the greater, so sharing is monotonic by design — a record a device saw shared stays
  /// shared whatever order copies arrive in, and no later copy makes it private. Copies with
  /// no existence register keep the greater owner (`OwnerJoinTests` has the owner's rule).
  @Test func sharingIsMonotonicAndOwnersConverge() {
    let date = Date(timeIntervalSince1970: 1)
    func copy(_ owner: String, _ scope: SharingScope) -> RecordState {
      RecordState(kind: .category, id: Self.id, createdAt: date, updatedAt: date, ownerID: owner, sharingScope: scope)
    }
    let shared = copy("alex", .shared), privateLater = copy("sam", .private)
    #expect(Self.joined(shared, privateLater).sharingScope == .shared)
    #expect(Self.joined(privateLater, shared).sharingScope == .shared)
    #expect(Self.joined(shared, privateLater).ownerID == "sam")
    #expect(Self.joined(privateLater, shared).ownerID == "sam")
  }
}
