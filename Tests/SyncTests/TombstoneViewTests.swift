import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// A deleted record's row is the view of its states like any other, its references
/// included: they resolve to the keeper of what they name, or clear when it is not shown,
/// whether the target was deleted here (its own delete reached the row before the view) or
/// merged on another device. `sync verify` compares them, and a device that joins from the
/// log holds the same tombstones.
@Suite("Tombstones are the view")
struct TombstoneViewTests {
  static func tombstone(_ store: any Store, _ kind: EntityKind, _ id: UUID) throws -> Record? {
    try store.read { try $0.record(kind, id: id) }
  }

  @Test(arguments: TestBackend.allCases)
  func aDeletedTemplatesCategoryFollowsItsCategorysDeleteAndMerge(_ backend: TestBackend) throws {
    let house = try HostileBatchTests.Household(backend, devices: 3)
    let phone = house.devices[0].library
    let tablet = house.devices[1].library
    let garlic = try phone.ingredients.getOrCreate("garlic", category: "Alliums")
    let leek = try phone.ingredients.getOrCreate("leek", category: "Alliums")
    let onion = try phone.ingredients.getOrCreate("onion", category: "Bulbs")
    try house.engine(0).sync()
    try house.engine(1).sync()

    // The phone deletes two templates, then their categories' fates part: it deletes
    // Alliums itself and makes Vegetables, while the tablet, offline, renames Bulbs to
    // "vegetables": after sync the two are one entity by their key.
    _ = try phone.ingredients.delete("garlic")
    _ = try phone.ingredients.delete("onion")
    _ = try phone.categories.delete("Alliums")
    _ = try phone.categories.getOrCreate("Vegetables")
    _ = try tablet.categories.rename("Bulbs", to: "vegetables")
    for index in [1, 0, 1, 0] { try house.engine(index).sync() }
    try house.engine(2).sync()  // a new device, from the whole log

    let vegetables = try #require(try phone.categories.find("Vegetables"))
    for index in 0..<3 {
      let store = house.devices[index].library.store
      #expect(try SyncVerifier(store: store).verify().isClean, "device \(index)")
      let garlicRow = try #require(try Self.tombstone(store, .ingredientTemplate, garlic.id))
      #expect(!garlicRow.meta.isLive && garlicRow["category"] == .null, "device \(index): its category is not shown")
      let onionRow = try #require(try Self.tombstone(store, .ingredientTemplate, onion.id))
      #expect(!onionRow.meta.isLive && onionRow["category"] == .reference(vegetables.id), "device \(index): the keeper")
      let leekRow = try #require(try Self.tombstone(store, .ingredientTemplate, leek.id))
      #expect(leekRow.meta.isLive && leekRow["category"] == .null, "device \(index): a live template's category is cleared")
    }
    // Every device holds the same tombstones of the deleted templates, field for field.
    for id in [garlic.id, onion.id] {
      let rows = try (0..<3).map { try Self.tombstone(house.devices[$0].library.store, .ingredientTemplate, id)?.values }
      #expect(rows[0] == rows[1] && rows[1] == rows[2])
    }
  }
}
