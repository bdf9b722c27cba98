import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// A device still on schema v2 (random ids, no unique constraints) keeps pushing
/// duplicates; a v3 device imports them without crashing or rejecting anything, and dedup
/// absorbs them.
@Suite("Mixed schema versions")
struct MixedVersionSyncTests {
  /// What a v2 replica pushes for a record it created: every field, a random id.
  static func v2Record(_ kind: EntityKind, _ fields: [String: FieldValue], replica: String, time: Int64) -> RecordChange {
    let stamp = Stamp(time: time, counter: 0, replica: replica)
    return RecordChange(
      kind: kind, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: fields.mapValues { StampedValue(value: $0, stamp: stamp) }
    )
  }

  @Test(arguments: TestBackend.allCases)
  func duplicatesFromAVersionTwoDeviceAreMergedOnImport(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["new"])
    let local = try world["new"].library.ingredients.getOrCreate("milk", category: "Dairy")
    try world.sync("new")

    var changes: [RecordChange] = []
    var categoryIDs: [UUID] = []
    for (index, spelling) in ["Dairy", "dairy", " DAIRY"].enumerated() {
      let category = Self.v2Record(
        .category, ["displayName": .text(spelling), "normalizedName": .text("dairy"), "sortOrder": .integer(Int64(index))], replica: "old",
        time: 1_778_307_205_000 + Int64(index))
      categoryIDs.append(category.id)
      changes.append(category)
      changes.append(
        Self.v2Record(
          .ingredientTemplate,
          [
            "displayName": .text("Cheese \(index)"), "canonicalName": .text("cheese \(index)"), "aliases": .textList([]),
            "ingredientKind": .text("dairy"), "category": .reference(category.id), "isStaple": .bool(false), "usageCount": .integer(0),
          ], replica: "old", time: 1_778_307_205_100 + Int64(index)))
    }
    changes.append(
      Self.v2Record(
        .ingredientTemplate,
        [
          "displayName": .text("Milk"), "canonicalName": .text("milk"), "aliases": .textList(["whole milk"]),
          "ingredientKind": .text("dairy"),
          "isStaple": .bool(true), "usageCount": .integer(3),
        ], replica: "old", time: 1_778_307_205_200))
    _ = try world.cloud.push(ChangeBatch(id: "old:1-10", replica: "old", schemaVersion: 2, changes: changes))

    let report = try world["new"].engine.sync()
    #expect(report.errors == 0)
    #expect(report.merges >= 3)
    let library = world["new"].library
    let dairy = try #require(try library.categories.find("dairy"))
    #expect(try library.categories.all().count == 1)
    #expect(dairy.id == ([local.category].compactMap { $0 } + categoryIDs).min(by: UUID.keeperOrder))
    let templates = try library.ingredients.all()
    #expect(templates.count == 4)
    #expect(templates.allSatisfy { $0.category == dairy.id })
    let milk = try #require(try library.ingredients.find("whole milk"))
    #expect(milk.id == local.id || UUID.keeperOrder(milk.id, local.id))
    #expect(milk.isStaple)
    #expect(try library.duplicates().isEmpty)

    // The old device keeps creating duplicates later: absorbed the same way.
    _ = try world.cloud.push(
      ChangeBatch(
        id: "old:11-11", replica: "old", schemaVersion: 2,
        changes: [
          Self.v2Record(
            .category, ["displayName": .text("Dairy"), "normalizedName": .text("dairy"), "sortOrder": .integer(9)], replica: "old",
            time: 1_778_307_206_000)
        ]))
    try world.sync("new")
    #expect(try library.categories.all().count == 1)
    #expect(try world.invariantViolations() == [])
  }
}
