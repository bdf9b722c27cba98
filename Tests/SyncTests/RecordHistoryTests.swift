import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// The history a device keeps of each record (who changed which field, old → new), its
/// bounds, the trash it lists and a restore that wins over the delete on every device.
@Suite("Record history and trash")
struct RecordHistoryTests {
  static func rows(_ store: any Store) throws -> [SyncHistoryRow] {
    try store.read { try $0.syncHistory(after: 0, limit: 1_000_000) }
  }

  @Test(arguments: TestBackend.allCases)
  func aRenameIsKeptWithTheDeviceThatMadeItAndTheOldValue(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone", "tablet"])
    let produce = try world["phone"].library.categories.getOrCreate("Produce")
    try world.sync("phone")
    try world.sync("tablet")
    // A record's first state is its creation: the existence register alone.
    let created = try RecordHistory.changes(of: .category, id: produce.id, in: world["tablet"].store)
    #expect(created.map(\.field) == ["exists"] && created.first?.old == nil && created.first?.new == .bool(true))
    #expect(created.first?.replica == (try world["phone"].engine.replicaID()), "the phone created it")

    _ = try world["tablet"].library.categories.rename("Produce", to: "Fresh Produce")
    try world.sync("tablet")
    try world.sync("phone")
    let tablet = try world["tablet"].engine.replicaID()
    for name in ["phone", "tablet"] {
      let changes = try RecordHistory.changes(of: .category, id: produce.id, in: world[name].store)
      let rename = try #require(changes.first { $0.field == "displayName" }, "\(name)")
      #expect(rename.old == .text("Produce") && rename.new == .text("Fresh Produce"), "\(name)")
      #expect(rename.replica == tablet, "\(name): the tablet renamed it")
      #expect(rename.time != nil, "\(name)")
    }
    #expect(world.viewProblems.isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func historyKeepsAtMostItsBoundsAndDropsTheOldest(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let phone = world["phone"]
    try HistoryBounds(perRecord: 3, total: 5).save(in: phone.store)
    _ = try phone.library.categories.getOrCreate("Produce")
    _ = try phone.library.categories.getOrCreate("Dairy")
    try world.sync("phone")
    var name = "Produce"
    for step in 1...6 {
      let next = "Produce \(step)"
      _ = try phone.library.categories.rename(name, to: next)
      name = next
      try world.sync("phone")
    }
    let produce = try #require(try phone.library.categories.find(name))
    let kept = try phone.store.read { try $0.syncHistory(.category, id: produce.id) }
    #expect(kept.count == 3, "per record")
    #expect(try phone.store.read { try $0.historyIsPartial(RecordKey(kind: .category, id: produce.id)) })
    let newest = try #require(RecordHistory.changes(of: .category, id: produce.id, in: phone.store).last { $0.field == "displayName" })
    #expect(newest.new == .text("Produce 6") && newest.old == .text("Produce 5"), "the newest stay")
    for step in 1...3 {
      _ = try phone.library.categories.rename(step == 1 ? "Dairy" : "Dairy \(step - 1)", to: "Dairy \(step)")
      try world.sync("phone")
    }
    #expect(try Self.rows(phone.store).count == 5, "in all")
    #expect(throws: HistoryError.self) { try HistoryBounds(perRecord: 0, total: 5) }
    #expect(throws: HistoryError.self) { try HistoryBounds(perRecord: 3, total: 10_000_001) }
  }

  @Test(arguments: TestBackend.allCases)
  func theTrashNamesTheDeviceThatDeletedAndARestoreWinsEverywhere(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone", "tablet"])
    let phone = world["phone"].library
    guard
      case .created(let pasta) = try phone.recipes.create(RecipeDraft(name: "Tomato Pasta", ingredients: ["2 tomatoes", "200 g pasta"]))
    else {
      Issue.record("not created")
      return
    }
    _ = try phone.meals.plan(date: "2026-11-30", mealType: "dinner", recipe: "Tomato Pasta")
    try world.sync("phone")
    try world.sync("tablet")

    let tablet = world["tablet"].library
    _ = try tablet.recipes.delete("Tomato Pasta")
    try world.sync("tablet")
    try world.sync("phone")
    #expect(try phone.recipes.find("Tomato Pasta") == nil)
    #expect(try phone.meals.meal(date: "2026-11-30", mealType: "dinner") == nil)

    let trash = try RecordHistory.trash(in: world["phone"].store)
    #expect(trash.map(\.record.id) == [pasta.id], "the recipe only: its lines and meal went with it")
    #expect(trash.first?.replica == (try world["tablet"].engine.replicaID()))

    let outcome = try RecordHistory.restore(.recipe, id: pasta.id, with: phone)
    #expect(outcome.related.filter { $0.kind == .recipeIngredient }.count == 2)
    #expect(outcome.related.filter { $0.kind == .plannedMeal }.count == 1)
    #expect(try RecordHistory.trash(in: world["phone"].store).isEmpty)
    try world.sync("phone")
    try world.sync("tablet")
    for library in [phone, tablet] {
      let details = try library.recipes.details("Tomato Pasta")
      #expect(details.lines.count == 2)
      #expect(try library.meals.meal(date: "2026-11-30", mealType: "dinner")?.recipe == pasta.id)
    }
    let exists = try RecordHistory.changes(of: .recipe, id: pasta.id, in: world["tablet"].store).filter { $0.field == "exists" }
    #expect(exists.map(\.new) == [.bool(true), .bool(false), .bool(true)], "the creation, the delete, then the restore stamped after it")
    #expect(world.viewProblems.isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func aRestoreIntoANameNowTakenKeepsTheLiveRecordAndWritesNothing(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let library = world["phone"].library
    let produce = try library.categories.getOrCreate("Produce")
    _ = try library.categories.delete("Produce")
    let fresh = try library.categories.getOrCreate("Fresh")
    _ = try library.categories.rename("Fresh", to: "produce")
    let before = try library.store.read { try $0.latestChangeSequence() }
    #expect(throws: RepositoryError.restoreCollision(.category, name: "Produce", existingName: "produce", existingID: fresh.id)) {
      try library.restore(.category, id: produce.id)
    }
    #expect(try library.store.read { try $0.latestChangeSequence() } == before)
    #expect(throws: RepositoryError.notDeleted(.category, "produce")) { try library.restore(.category, id: fresh.id) }
  }

  @Test(arguments: TestBackend.allCases)
  func aRevertThatBreaksAUniqueKeyWritesNothing(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let library = world["phone"].library
    let produce = try library.categories.getOrCreate("Produce")
    let dairy = try library.categories.getOrCreate("Dairy")
    let before = try library.store.dump()
    let eggs: [String: FieldValue] = ["displayName": .text("Eggs"), "normalizedName": .text("eggs")]
    let reverts = [
      RecordRevert(kind: .category, id: produce.id, fields: eggs, liveness: .live),
      RecordRevert(kind: .category, id: dairy.id, fields: eggs, liveness: .live),
    ]
    #expect(throws: StoreError.self) { try library.revert(reverts) }
    #expect(try library.store.dump() == before)
  }
}
