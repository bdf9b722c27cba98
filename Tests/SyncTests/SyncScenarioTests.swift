import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// The scenarios of issue 5, each on both store backends.
@Suite("Sync scenarios")
struct SyncScenarioTests {
  @Test(arguments: TestBackend.allCases)
  func categoryCreatedOnOneDeviceIsTheSameRecordOnTheOther(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    let produce = try world["A"].library.categories.getOrCreate("Produce")
    try world.sync("A")
    try world.sync("B")
    #expect(try world["B"].library.categories.all().map(\.id) == [produce.id])
    let again = try world["B"].library.categories.getOrCreate("produce")
    #expect(again.id == produce.id)
    try world.syncUntilQuiet()
    #expect(try world["A"].library.categories.all().count == 1)
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func templatesCreatedOfflineOnBothDevicesBecomeOne(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    let a = try world["A"].library.ingredients.getOrCreate("basil")
    let b = try world["B"].library.ingredients.getOrCreate("BASIL")
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.ingredients.all().map(\.id) == [a.id])
    }
    #expect(a.id == b.id)
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func aSlotPlannedOnTwoDevicesKeepsTheLaterRecipe(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Chicken Pasta"))
    _ = try world["B"].library.recipes.create(RecipeDraft(name: "Fish Tacos"))
    _ = try world["A"].library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: "Chicken Pasta")
    let later = try world["B"].library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: "Fish Tacos")
    try world.syncUntilQuiet()
    for device in world.devices {
      let meal = try #require(try device.library.meals.meal(date: "2024-12-13", mealType: "dinner"))
      #expect(meal.recipe == later.recipe.id)
      #expect(try device.library.counts()[.plannedMeal] == 1)
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func recipesWithOneTitleAreKeptReportedAndCanBeMerged(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Lasagna", ingredients: ["pasta sheets"]))
    _ = try world["B"].library.recipes.create(RecipeDraft(name: "lasagna", ingredients: ["ricotta"]))
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.recipes.all().count == 2)
      let groups = try device.library.recipes.duplicates()
      #expect(groups.map(\.members.count) == [2])
    }
    let ids = try world["A"].library.recipes.all().map(\.id).sorted(by: UUID.keeperOrder)
    _ = try world["A"].library.recipes.merge(ids[1].uuidString, into: ids[0].uuidString)
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.recipes.all().map(\.id) == [ids[0]])
      #expect(try device.library.recipes.duplicates().isEmpty)
    }
    let problems = try world.invariantViolations()
    #expect(problems == [])
  }

  @Test(arguments: TestBackend.allCases)
  func changesMadeOfflineGoOutWhenTheDeviceSyncs(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    world.offline = ["A"]
    for name in ["Produce", "Dairy", "Bakery", "Pantry", "Frozen"] {
      _ = try world["A"].library.categories.getOrCreate(name)
    }
    try world.syncUntilQuiet()
    #expect(try world["B"].library.categories.all().isEmpty)
    #expect(try world["A"].engine.pendingChangeCount() == 5)
    world.offline = []
    try world.syncUntilQuiet()
    #expect(try world["B"].library.categories.all().count == 5)
    #expect(try world["A"].engine.pendingChangeCount() == 0)
  }

  @Test(arguments: TestBackend.allCases)
  func concurrentCreationOfManyCategoriesLeavesExactlyTheDistinctOnes(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    for device in ["A", "B"] {
      let library = world[device].library
      for index in 0..<20 {
        _ = try library.ingredients.getOrCreate("\(device) shared item \(index)", category: "Shared \(index)")
      }
      for index in 0..<20 {
        _ = try library.ingredients.getOrCreate("\(device) own item \(index)", category: "\(device) own \(index)")
      }
    }
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.categories.all().count == 60)
      let templates = try device.library.ingredients.all()
      #expect(templates.count == 80)
      let live = Set(try device.library.categories.all().map(\.id))
      #expect(templates.allSatisfy { $0.category.map(live.contains) == true })
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func concurrentEditsResolveToTheLaterStampAndDeletesWin(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.categories.getOrCreate("Produce")
    _ = try world["A"].library.categories.getOrCreate("Dairy")
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Soup", cuisine: "French"))
    try world.syncUntilQuiet()

    // An edit propagates.
    _ = try world["A"].library.recipes.update("Soup", [.notes("Add salt late")])
    // Concurrent edits of one field: B's is later.
    _ = try world["A"].library.recipes.update("Soup", [.cuisine("Italian")])
    _ = try world["B"].library.recipes.update("Soup", [.cuisine("Spanish")])
    // An edit concurrent with a delete: the delete wins.
    _ = try world["A"].library.categories.rename("Dairy", to: "Dairy & Eggs")
    _ = try world["B"].library.categories.delete("Dairy")
    try world.syncUntilQuiet()
    for device in world.devices {
      let soup = try #require(try device.library.recipes.find("Soup"))
      #expect(soup.notes == "Add salt late")
      #expect(soup.recipeCuisine == "Spanish")
      #expect(try device.library.categories.all().map(\.displayName) == ["Produce"])
    }
    #expect(world["A"].engine.monitor.status.conflicts + world["B"].engine.monitor.status.conflicts >= 1)
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func renamingOntoANameCreatedElsewhereMergesAndKeepsBothRelationships(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.ingredients.getOrCreate("carrot", category: "Veg")
    try world.syncUntilQuiet()
    _ = try world["A"].library.categories.rename("Veg", to: "Produce")
    _ = try world["B"].library.ingredients.getOrCreate("apple", category: "Produce")
    try world.syncUntilQuiet()
    for device in world.devices {
      let categories = try device.library.categories.all()
      #expect(categories.map(\.normalizedName) == ["produce"])
      let produce = try #require(categories.first)
      #expect(try device.library.ingredients.find("carrot")?.category == produce.id)
      #expect(try device.library.ingredients.find("apple")?.category == produce.id)
    }
    #expect(world.devices.map { $0.engine.monitor.status.merges }.reduce(0, +) >= 1)
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func deletingARecipeOnOneDeviceClearsAMealPlannedWithItOnAnother(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["onion"]))
    try world.syncUntilQuiet()
    _ = try world["B"].library.meals.plan(date: "2025-01-01", mealType: "lunch", recipe: "Soup")
    _ = try world["A"].library.recipes.delete("Soup")
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.meals.meal(date: "2025-01-01", mealType: "lunch") == nil)
      #expect(try device.library.counts()[.recipeIngredient] == 0)
    }
    #expect(try world.invariantViolations() == [])
  }
}
