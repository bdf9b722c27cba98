import Foundation
import Model
import Testing

@testable import Sync

/// The reference view's rules (Docs/SYNC.md, "The view"), each on a few hand-written
/// states, so that what the simulator compares every device with is itself checked.
@Suite("Reference view")
struct ReferenceViewTests {
  static func id(_ n: Int) -> UUID {
    let digits = String(n)
    return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits) ?? UUID()
  }
  static func stamp(_ time: Int64, _ replica: String = "a") -> Stamp { Stamp(time: time, counter: 0, replica: replica) }
  static let day = Date(timeIntervalSince1970: 1_734_048_000)

  /// A category state: its name and key at `time`, and `extra` registers.
  static func category(_ n: Int, _ name: String, at time: Int64, _ extra: [String: StampedValue] = [:]) -> RecordState {
    var registers = extra
    registers["displayName"] = StampedValue(value: .text(name), stamp: stamp(time))
    registers["normalizedName"] = StampedValue(value: .text(name.lowercased()), stamp: stamp(time))
    registers[RecordState.existsField] = registers[RecordState.existsField] ?? StampedValue(value: .bool(true), stamp: stamp(1))
    return RecordState(
      kind: .category, id: id(n), createdAt: day, updatedAt: day.addingTimeInterval(Double(n)), ownerID: "local", sharingScope: .private,
      registers: registers)
  }

  static func expected(_ view: ReferenceView, _ kind: EntityKind, _ n: Int) -> ReferenceView.Expected? {
    view.expected[RecordKey(kind: kind, id: id(n))]
  }

  static func row(_ view: ReferenceView, _ kind: EntityKind, _ n: Int) -> Record? {
    if case .row(let record)? = expected(view, kind, n) { return record }
    return nil
  }

  @Test func liveRecordsSharingAKeyAreOneEntityShownByTheSmallestIdWithTheHighestRegisters() throws {
    let sortOrder = StampedValue(value: .integer(7), stamp: Self.stamp(9, "b"))
    let view = ReferenceView(states: [
      Self.category(2, "Produce", at: 5, ["sortOrder": sortOrder]), Self.category(1, "produce", at: 3),
    ])
    let row = try #require(Self.row(view, .category, 1))
    #expect(row.meta.isLive)
    // The identity fields together from the member with the highest key register.
    #expect(row["displayName"] == .text("Produce"))
    #expect(row["sortOrder"] == .integer(7))
    #expect(row.meta.updatedAt == Self.day.addingTimeInterval(2))
    #expect(Self.expected(view, .category, 2) == .notShown(keeper: Self.id(1)))
  }

  @Test func anUnwrittenFieldShowsItsDefaultAndAMissingRequiredOneLeavesTheRecordUnshown() throws {
    let view = ReferenceView(states: [
      Self.category(1, "Dairy", at: 2),
      RecordState(
        kind: .category, id: Self.id(2), createdAt: Self.day, updatedAt: Self.day, ownerID: "local", sharingScope: .private,
        registers: ["sortOrder": StampedValue(value: .integer(3), stamp: Self.stamp(4))]),
    ])
    #expect(Self.row(view, .category, 1)?["sortOrder"] == .integer(0))
    #expect(Self.expected(view, .category, 2) == .notShown(keeper: Self.id(2)))
  }

  @Test func theHighestExistenceRegisterDecidesAndADeletedRecordStandsAlone() throws {
    let deleted = StampedValue(value: .bool(false), stamp: Self.stamp(8))
    let view = ReferenceView(states: [
      Self.category(1, "Veg", at: 2, [RecordState.existsField: deleted]), Self.category(2, "Veg", at: 3),
    ])
    #expect(Self.row(view, .category, 1)?.meta.deletedAt == Date(timeIntervalSince1970: 0.008))
    #expect(Self.row(view, .category, 2)?.meta.isLive == true, "a deleted record shares its key with no one")
  }

  @Test func aMergeEdgeJoinsRecordsWhateverTheirKeys() throws {
    var loser = Self.category(1, "Greens", at: 9)
    loser.addEdge(to: Self.id(2), stamp: Self.stamp(10))
    let view = ReferenceView(states: [loser, Self.category(2, "Veg", at: 3)])
    #expect(Self.row(view, .category, 1)?["displayName"] == .text("Greens"))
    #expect(Self.expected(view, .category, 2) == .notShown(keeper: Self.id(1)))
  }

  @Test func referencesResolveToTheKeeperAndARequiredParentNotShownHidesTheRecord() throws {
    var loser = Self.category(3, "Produce", at: 4)
    loser.addEdge(to: Self.id(2), stamp: Self.stamp(5))
    func template(_ n: Int, _ name: String, category: Int) -> RecordState {
      RecordState(
        kind: .ingredientTemplate, id: Self.id(n), createdAt: Self.day, updatedAt: Self.day, ownerID: "local", sharingScope: .private,
        registers: [
          "displayName": StampedValue(value: .text(name), stamp: Self.stamp(2)),
          "canonicalName": StampedValue(value: .text(name), stamp: Self.stamp(2)),
          "category": StampedValue(value: .reference(Self.id(category)), stamp: Self.stamp(2)),
          RecordState.existsField: StampedValue(value: .bool(true), stamp: Self.stamp(1)),
        ])
    }
    let line = RecordState(
      kind: .recipeIngredient, id: Self.id(20), createdAt: Self.day, updatedAt: Self.day, ownerID: "local", sharingScope: .private,
      registers: [
        "recipe": StampedValue(value: .reference(Self.id(30)), stamp: Self.stamp(2)),
        "template": StampedValue(value: .reference(Self.id(10)), stamp: Self.stamp(2)),
        "rawLine": StampedValue(value: .text("2 basil"), stamp: Self.stamp(2)),
        RecordState.existsField: StampedValue(value: .bool(true), stamp: Self.stamp(1)),
      ])
    let view = ReferenceView(states: [
      Self.category(2, "Veg", at: 3), loser, template(10, "basil", category: 3), template(11, "dill", category: 99), line,
    ])
    #expect(Self.row(view, .ingredientTemplate, 10)?["category"] == .reference(Self.id(2)), "to the keeper of its component")
    #expect(Self.row(view, .ingredientTemplate, 11)?["category"] == .null, "an optional reference to nothing is cleared")
    let hidden = try #require(Self.row(view, .recipeIngredient, 20))
    #expect(!hidden.meta.isLive, "its recipe has not arrived")
    #expect(hidden["recipe"] == .reference(Self.id(30)), "a hidden row keeps its reference as written")
  }

  @Test func theComparisonNamesEachDifferenceAndIsCleanOnTheViewItself() throws {
    let view = ReferenceView(states: [Self.category(1, "Veg", at: 3), Self.category(2, "veg", at: 2)])
    let keeper = try #require(Self.row(view, .category, 1))
    #expect(view.differences(from: [RecordKey(kind: .category, id: Self.id(1)): keeper]).isEmpty)
    var renamed = keeper
    renamed["displayName"] = .text("Greens")
    var member = keeper
    member.meta.id = Self.id(2)
    let found = view.differences(from: [
      RecordKey(kind: .category, id: Self.id(1)): renamed, RecordKey(kind: .category, id: Self.id(2)): member,
    ])
    #expect(found.map(\.field) == ["displayName", ViewDifference.rowField])
    #expect(found.first?.table == "\"Greens\"" && found.first?.expected == "\"Veg\"")
    #expect(view.differences(from: [:]).map(\.table) == ["no row"])
  }
}
