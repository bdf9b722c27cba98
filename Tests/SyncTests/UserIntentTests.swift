import Foundation
import Model
import Persistence
import Repositories
import Seed
import Sync
import TestSupport
import Testing

/// What a user did on purpose survives what another device did without knowing: a plan
/// made for a recipe merged away elsewhere, fields set explicitly against an implicit
/// create, a rename against a later `seed defaults`, an edit against a concurrent delete.
@Suite("A user's writes survive another device's")
struct UserIntentTests {
  @Test(arguments: TestBackend.allCases)
  func aMealPlannedForARecipeMergedAwayElsewhereLandsOnTheKeptRecipe(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Lasagna", ingredients: ["pasta sheets"]))
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Ziti", ingredients: ["ziti"]))
    try world.syncUntilQuiet()
    _ = try world["A"].library.recipes.merge("Lasagna", into: "Ziti")
    _ = try world["B"].library.meals.plan(date: "2024-12-21", mealType: "lunch", recipe: "Lasagna")
    try world.syncUntilQuiet()
    for device in world.devices {
      let meal = try #require(try device.library.meals.meal(date: "2024-12-21", mealType: "lunch"), "\(device.name)")
      let recipes = try device.library.recipes.all()
      #expect(recipes.map(\.displayName) == ["Ziti"], "\(device.name)")
      #expect(meal.recipe == recipes.first?.id, "\(device.name)")
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func anImplicitCreateDoesNotOverrideFieldsSetOnPurpose(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.ingredients.getOrCreate("egg", kind: .protein, aliases: ["hen egg"], isStaple: true)
    // Later, and without having synced, B adds a recipe whose line creates the template.
    _ = try world["B"].library.recipes.create(RecipeDraft(name: "Omelette", ingredients: ["3 eggs"]))
    try world.syncUntilQuiet()
    for device in world.devices {
      let egg = try #require(try device.library.ingredients.find("egg"), "\(device.name)")
      #expect(egg.ingredientKind == .protein, "\(device.name)")
      #expect(egg.isStaple, "\(device.name)")
      #expect(egg.aliases == ["hen egg"], "\(device.name)")
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func aLaterSeedDoesNotUndoAnOfflineRename(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.categories.getOrCreate("Produce")
    _ = try world["A"].library.categories.rename("Produce", to: "Fresh Produce")
    _ = try Seed.defaults(into: world["B"].library)
    try world.syncUntilQuiet()
    for device in world.devices {
      let names = try device.library.categories.all().map(\.displayName)
      #expect(names.contains("Fresh Produce"), "\(device.name): \(names)")
      #expect(!names.contains("Produce"), "\(device.name): \(names)")
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func reSyncingPushesOnlyADevicesOwnWrites(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Soup", cuisine: "French"))
    try world.syncUntilQuiet()
    _ = try world["A"].library.recipes.update("Soup", [.cuisine("Italian")])
    _ = try world["B"].library.recipes.update("Soup", [.notes("Salt late")])
    try world.syncUntilQuiet()
    let replicaA = try world["A"].engine.replicaID()
    let pushedByB = try world.cloud.pull(after: 0, limit: 1_000).filter { $0.batch.replica != replicaA }.flatMap(\.batch.changes)
    // B wrote only the notes: it never sends A's cuisine back.
    #expect(pushedByB.allSatisfy { $0.fields["recipeCuisine"] == nil })
    #expect(pushedByB.contains { $0.fields["notes"] != nil })
  }
}
