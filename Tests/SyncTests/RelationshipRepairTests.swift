import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// Relationships a replica had to clear (their record was deleted) come back, pointing at
/// the keeper, once the deletion turns out to have been a merge — in whatever order the
/// merge, its keeper and the cleared relationship arrive.
@Suite("Relationship repair")
struct RelationshipRepairTests {
  static let keeper = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
  static let loser = UUID(uuidString: "00000000-0000-4000-8000-000000000009")!
  static let template = UUID(uuidString: "00000000-0000-4000-8000-0000000000a0")!

  /// A change as another replica pushes it, every field stamped at `time`.
  static func change(_ kind: EntityKind, _ id: UUID, _ fields: [String: FieldValue], time: Int64) -> RecordChange {
    let stamp = Stamp(time: time, counter: 0, replica: "other")
    return RecordChange(
      kind: kind, id: id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: fields.mapValues { StampedValue(value: $0, stamp: stamp) }
    )
  }

  /// An ingredient template as another replica pushes it.
  static func ingredient(_ id: UUID, _ name: String, category: UUID? = nil, usageCount: Int64 = 0, time: Int64) -> RecordChange {
    var fields: [String: FieldValue] = [
      "displayName": .text(name), "canonicalName": .text(name), "aliases": .textList([]), "ingredientKind": .text("other"),
      "isStaple": .bool(false), "usageCount": .integer(usageCount),
    ]
    fields["category"] = category.map(FieldValue.reference)
    return change(.ingredientTemplate, id, fields, time: time)
  }

  /// The template whose category the tests delete or merge.
  static func garlic(category: UUID, time: Int64) -> RecordChange {
    ingredient(template, "garlic", category: category, usageCount: 1, time: time)
  }

  /// A record's tombstone with its redirect: another replica merged it into `keeper`.
  static func mergedAway(_ kind: EntityKind, _ id: UUID, into keeper: UUID, time: Int64) -> RecordChange {
    change(kind, id, [RecordChange.redirectField: .reference(keeper), RecordChange.deletedField: .timestamp(Fixtures.epoch)], time: time)
  }

  static func category(_ id: UUID, _ name: String, time: Int64) -> RecordChange {
    change(.category, id, ["displayName": .text(name), "normalizedName": .text(name.lowercased()), "sortOrder": .integer(0)], time: time)
  }

  /// The keeper arrives after the merge that names it (in the same page, or pages later).
  @Test(arguments: [1, 64])
  func aRelationshipFollowsAMergeWhoseKeeperArrivesLater(pageSize: Int) throws {
    let world = try SyncWorld(.memory, devices: ["phone"], pullPageSize: pageSize)
    // Stamps a little after the devices' clock (Fixtures.epoch), within the allowed skew.
    let base: Int64 = 1_778_307_205_000
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:1-2", replica: "other", schemaVersion: 3,
        changes: [
          Self.category(Self.loser, "Fruit", time: base),
          Self.garlic(category: Self.loser, time: base + 1),
        ]))
    try world.sync("phone")
    let library = world["phone"].library
    #expect(try library.ingredients.find("garlic")?.category == Self.loser)

    // Then it learns the category was merged into a record it has not seen yet.
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:3-4", replica: "other", schemaVersion: 3,
        changes: [
          Self.mergedAway(.category, Self.loser, into: Self.keeper, time: base + 3),
          Self.category(Self.keeper, "Snacks", time: base + 4),
        ]))
    try world.sync("phone")
    #expect(try library.ingredients.find("garlic")?.category == Self.keeper)
    #expect(try library.categories.all().map(\.displayName) == ["Snacks"])
    #expect(try world.invariantViolations() == [])
  }

  /// The keeper arrives deleted: the relationship stays cleared until the chain ends at a
  /// live record.
  @Test func aMergeIntoADeletedKeeperLeavesTheRelationshipCleared() throws {
    let world = try SyncWorld(.memory, devices: ["phone"], pullPageSize: 1)
    // Stamps a little after the devices' clock (Fixtures.epoch), within the allowed skew.
    let base: Int64 = 1_778_307_205_000
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:1-5", replica: "other", schemaVersion: 3,
        changes: [
          Self.category(Self.loser, "Fruit", time: base),
          Self.garlic(category: Self.loser, time: base + 1),
          Self.mergedAway(.category, Self.loser, into: Self.keeper, time: base + 3),
          Self.category(Self.keeper, "Snacks", time: base + 4),
          Self.change(.category, Self.keeper, [RecordChange.deletedField: .timestamp(Fixtures.epoch)], time: base + 5),
        ]))
    try world.sync("phone")
    let library = world["phone"].library
    #expect(try library.ingredients.find("garlic")?.category == nil)
    #expect(try world.invariantViolations() == [])
  }

  static func recipe(_ id: UUID, _ name: String, time: Int64) -> RecordChange {
    change(
      .recipe, id,
      [
        "displayName": .text(name), "titleKey": .text(name.lowercased()), "recipeIngredient": .textList([]),
        "normalizedIngredients": .textList([]),
        "recipeInstructions": .textList([]), "keywords": .textList([]), "sourceType": .text("manual"), "tags": .referenceList([]),
        "isFavorite": .bool(false), "usageCount": .integer(0),
      ], time: time)
  }

  static let meal = UUID(uuidString: "00000000-0000-4000-8000-0000000000b0")!
  static let base: Int64 = 1_778_307_205_000

  /// A phone that planned a meal with a recipe that was then deleted: the phone's repair
  /// removed the meal.
  static func phoneWithARemovedMeal(pullPageSize: Int = 64) throws -> SyncWorld {
    let world = try SyncWorld(.memory, devices: ["phone"], pullPageSize: pullPageSize)
    let slot: [String: FieldValue] = ["date": .text("2024-12-15"), "mealType": .text("lunch"), "slotKey": .text("2024-12-15-lunch")]
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:1-3", replica: "other", schemaVersion: 3,
        changes: [
          recipe(loser, "Soup", time: base),
          change(.plannedMeal, meal, slot.merging(["recipe": .reference(loser)]) { $1 }, time: base + 1),
          change(.recipe, loser, [RecordChange.deletedField: .timestamp(Fixtures.epoch)], time: base + 2),
        ]))
    try world.sync("phone")
    return world
  }

  /// A meal removed because its recipe was deleted comes back when it is re-planned with
  /// a live recipe, unless a user deleted it as well: deletes win.
  @Test func aRemovedRecordAUserAlsoDeletedStaysDeleted() throws {
    let world = try Self.phoneWithARemovedMeal()
    let meal = Self.meal, base = Self.base
    let isLive = { try world["phone"].store.read { try $0.record(.plannedMeal, id: meal)?.meta.isLive } }
    #expect(try isLive() == false)

    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:4-6", replica: "other", schemaVersion: 3,
        changes: [
          Self.change(.plannedMeal, meal, [RecordChange.deletedField: .timestamp(Fixtures.epoch)], time: base + 3),
          Self.recipe(Self.keeper, "Stew", time: base + 4),
          Self.change(.plannedMeal, meal, ["recipe": .reference(Self.keeper)], time: base + 5),
        ]))
    try world.sync("phone")
    #expect(try isLive() == false)
    #expect(try world.invariantViolations() == [])
  }

  /// Without a user's deletion, the same re-plan brings the removed meal back.
  @Test func aRemovedRecordComesBackWhenItPointsAtALiveRecordAgain() throws {
    let world = try Self.phoneWithARemovedMeal()
    let meal = Self.meal, base = Self.base
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:6-7", replica: "other", schemaVersion: 3,
        changes: [
          Self.recipe(Self.keeper, "Stew", time: base + 4),
          Self.change(.plannedMeal, meal, ["recipe": .reference(Self.keeper)], time: base + 5),
        ]))
    try world.sync("phone")
    let stored = try world["phone"].store.read { try $0.record(.plannedMeal, id: meal) }
    #expect(stored?.meta.isLive == true)
    #expect(stored?["recipe"] == .reference(Self.keeper))
    #expect(try world.invariantViolations() == [])
  }

  /// The re-plan can arrive before the recipe it names: the other device pushes each
  /// record at its first change, so a meal planned before the recipe was created goes out
  /// first, and the recipe may land in a later pull page or a later sync. The meal comes
  /// back at once, as a record arriving with a relationship to a record not here yet
  /// stays live: only a deleted record keeps it removed.
  @Test(arguments: [1, 64])
  func aRemovedRecordComesBackWhenItsNewRecordArrivesLater(pullPageSize: Int) throws {
    let world = try Self.phoneWithARemovedMeal(pullPageSize: pullPageSize)
    let meal = Self.meal, base = Self.base
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:6", replica: "other", schemaVersion: 3,
        changes: [
          Self.change(.plannedMeal, meal, ["recipe": .reference(Self.keeper)], time: base + 5)
        ]))
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:7", replica: "other", schemaVersion: 3,
        changes: [
          Self.recipe(Self.keeper, "Stew", time: base + 4)
        ]))
    try world.sync("phone")
    let stored = try world["phone"].store.read { try $0.record(.plannedMeal, id: meal) }
    #expect(stored?.meta.isLive == true)
    #expect(stored?["recipe"] == .reference(Self.keeper))
    #expect(try world.invariantViolations() == [])

    // The recipe it names deleted afterwards: the repair removes the meal again.
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:8", replica: "other", schemaVersion: 3,
        changes: [
          Self.change(.recipe, Self.keeper, [RecordChange.deletedField: .timestamp(Fixtures.epoch)], time: base + 6)
        ]))
    try world.sync("phone")
    #expect(try world["phone"].store.read { try $0.record(.plannedMeal, id: meal)?.meta.isLive } == false)
    #expect(try world.invariantViolations() == [])
  }

  /// A merge whose keeper this device then creates itself: the same name gives the same
  /// name-based id, so the keeper never arrives. The recipe line points at the keeper from
  /// the start and stays (randomized seed 85 of the wider workload once removed it on this
  /// device only).
  @Test func aClearedRelationshipFollowsAMergeWhoseKeeperIsCreatedHere() throws {
    let world = try SyncWorld(.memory, devices: ["phone"])
    let keeper = DeterministicID.make(kind: .ingredientTemplate, semanticKey: "garlic")
    let loser = UUID(uuidString: "ffffffff-0000-4000-8000-000000000001")!
    let recipe = UUID(uuidString: "00000000-0000-4000-8000-0000000000c0")!
    let line = UUID(uuidString: "00000000-0000-4000-8000-0000000000c1")!
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:1-4", replica: "other", schemaVersion: 3,
        changes: [
          Self.ingredient(loser, "garlic", usageCount: 1, time: Self.base),
          Self.recipe(recipe, "Soup", time: Self.base),
          Self.change(
            .recipeIngredient, line,
            [
              "recipe": .reference(recipe), "template": .reference(loser), "rawLine": .text("garlic"), "sortOrder": .integer(0),
            ], time: Self.base + 1),
          Self.mergedAway(.ingredientTemplate, loser, into: keeper, time: Self.base + 2),
        ]))
    try world.sync("phone")
    let stored = { try world["phone"].store.read { try $0.record(.recipeIngredient, id: line) } }
    // The edge names the keeper: the line points at it at once.
    #expect(try stored()?["template"] == .reference(keeper))

    let created = try world["phone"].library.ingredients.getOrCreate("garlic")
    #expect(created.id == keeper)
    try world.sync("phone")
    #expect(try stored()?.meta.isLive == true)
    #expect(try stored()?["template"] == .reference(keeper))
    #expect(try world.invariantViolations() == [])
  }

  /// A record merged into K1 here and then, by a later stamp elsewhere, into K2: both
  /// keepers are one entity now and K2 is merged into the smaller K1, even though K2 had
  /// not arrived when the second merge was learned (randomized seed 40 of the wider
  /// workload: the merge was skipped, and this device alone kept a merge derived from a
  /// redirect that had since changed).
  @Test func aUnionWhoseLoserArrivesLaterIsMergedOnArrival() throws {
    let world = try SyncWorld(.memory, devices: ["phone", "tablet"])
    let first = Self.keeper
    let second = UUID(uuidString: "00000000-0000-4000-8000-000000000005")!
    let merged = Self.loser
    func template(_ id: UUID, _ name: String, time: Int64) -> RecordChange { Self.ingredient(id, name, time: time) }
    func redirect(_ keeper: UUID, time: Int64) -> RecordChange { Self.mergedAway(.ingredientTemplate, merged, into: keeper, time: time) }
    _ = try world.cloud.push(
      ChangeBatch(
        id: "other:1-3", replica: "other", schemaVersion: 3,
        changes: [
          template(first, "garlic", time: Self.base), template(merged, "garlick", time: Self.base), redirect(first, time: Self.base + 1),
        ]))
    _ = try world.cloud.push(
      ChangeBatch(id: "third:1", replica: "third", schemaVersion: 3, changes: [redirect(second, time: Self.base + 2)]))
    _ = try world.cloud.push(
      ChangeBatch(id: "third:2", replica: "third", schemaVersion: 3, changes: [template(second, "rice", time: Self.base)]))
    try world.sync("phone")
    try world.sync("tablet")
    try world.sync("phone")
    for device in ["phone", "tablet"] {
      let state = try world[device].store.read { reader in
        (try reader.record(.ingredientTemplate, id: second)?.meta.isLive, try reader.record(.ingredientTemplate, id: first)?.meta.isLive)
      }
      #expect(state.0 != true, "\(device): the later keeper is merged into the smaller one")
      #expect(state.1 == true, "\(device): the smaller keeper stays")
    }
    #expect(try world.invariantViolations() == [])
  }
}
