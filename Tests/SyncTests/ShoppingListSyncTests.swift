import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Shopping lists across devices: amounts added offline sum into one line, and the
/// aisle order syncs like any other field.
@Suite("Shopping list sync")
struct ShoppingListSyncTests {
  private func milkLines(_ device: SyncWorld.Device) throws -> [ShoppingList.Line] {
    try device.library.lists.shoppingList("Week", units: .metric).aisles.flatMap(\.lines).filter { $0.name.lowercased() == "milk" }
  }

  @Test(arguments: TestBackend.allCases)
  func amountsAddedOfflineOnTwoDevicesShowAsOneSummedLine(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    let list = try world["A"].library.lists.create("Week", week: "2026-W47")
    try world.syncUntilQuiet()
    world.offline = ["A", "B"]
    // Each device creates the milk template offline (the same name-based id) and adds milk.
    _ = try world["A"].library.ingredients.getOrCreate("milk", category: "Dairy")
    _ = try world["A"].library.lists.addItem("2 cups milk", to: list.id.uuidString)
    _ = try world["B"].library.ingredients.getOrCreate("Milk")
    _ = try world["B"].library.lists.addItem("1 l milk", to: list.id.uuidString)
    _ = try world["B"].library.lists.addItem("milk", quantity: "500 ml", to: list.id.uuidString)
    #expect(try milkLines(world["B"]).map(\.amountText) == ["1.5 l"])
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices {
      let lines = try milkLines(device)
      #expect(lines.count == 1, "\(device.name)")
      #expect(lines.first?.items.count == 3)
      // 2 × 236.5882365 ml + 1.5 l, in litres, exactly.
      #expect(lines.first?.amounts.map(\.exact) == ["1973176473/1000000000"])
      #expect(lines.first?.amountText == "1.97 l")
      #expect(try device.library.lists.shoppingList("Week", units: .us).aisles.first?.lines.first?.amountText == "8 ⅓ cups")
      #expect(try device.library.lists.shoppingList("Week").aisles.map { $0.category?.displayName } == ["Dairy"])
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func theAisleOrderSyncs(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    for name in ["Produce", "Dairy", "Pantry"] { _ = try world["A"].library.categories.getOrCreate(name) }
    try world.syncUntilQuiet()
    _ = try world["B"].library.categories.move("Pantry", before: "Produce")
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.categories.all().map(\.displayName) == ["Pantry", "Produce", "Dairy"], "\(device.name)")
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func thePantryIsOneSetForEveryDevice(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Omelette", ingredients: ["3 eggs", "1 tbsp butter"]))
    _ = try world["A"].library.lists.create("Week", week: "2026-W47")
    try world.syncUntilQuiet()
    world.offline = ["A", "B"]
    // Both devices stock the pantry offline, one of them with the same ingredient.
    _ = try world["A"].library.pantry.add("eggs")
    _ = try world["B"].library.pantry.add("Eggs")
    _ = try world["B"].library.pantry.add("butter")
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.pantry.all().map(\.displayName) == ["butter", "egg"], "\(device.name)")
      #expect(try device.library.pantry.suggestions().first?.missing == [])
    }
    // Used up on one device: every device adds it to lists again.
    _ = try world["B"].library.pantry.remove("butter")
    try world.syncUntilQuiet()
    let addition = try world["A"].library.lists.addRecipe("Omelette", to: "Week")
    #expect(addition.added.map(\.displayName) == ["butter"])
    #expect(addition.skipped == ["egg"])
    try world.syncUntilQuiet()
    #expect(try world.invariantViolations() == [])
  }
}
