import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Stores, pantry amounts and the week's plan across devices (issue 36): orders and
/// amounts converge like any field, and `addPlan` gives one list whichever device runs it.
@Suite("Stores, pantry amounts and add-plan across devices")
struct WeeklyShopSyncTests {
  private func aisles(_ device: SyncWorld.Device, store: String? = nil) throws -> [String] {
    try device.library.lists.shoppingList("Week", store: store).aisles.map { $0.category?.displayName ?? "-" }
  }

  private func shown(_ device: SyncWorld.Device) throws -> [String] {
    try device.library.lists.shoppingList("Week", units: .metric, includeDone: true).aisles.flatMap(\.lines).map {
      "\($0.name) \($0.amountText)"
    }
  }

  /// Categories, ingredients in them, a week's list holding one of each, on every device.
  private func stocked(_ backend: TestBackend, devices: [String] = ["A", "B"]) throws -> SyncWorld {
    let world = try SyncWorld(backend, devices: devices)
    let a = world["A"].library
    for name in ["Produce", "Dairy", "Bakery"] { _ = try a.categories.getOrCreate(name) }
    for (name, category) in [("milk", "Dairy"), ("apples", "Produce"), ("bread", "Bakery")] {
      _ = try a.ingredients.getOrCreate(name, category: category)
    }
    _ = try a.lists.create("Week", week: "2024-W50")
    for item in ["milk", "apples", "bread"] { _ = try a.lists.addItem(item, to: "Week") }
    try world.syncUntilQuiet()
    return world
  }

  @Test(arguments: TestBackend.allCases)
  func twoDevicesThatOrderOneStoreDifferentlyConverge(_ backend: TestBackend) throws {
    let world = try stocked(backend)
    world.offline = ["A", "B"]
    // Each adds the store offline (one name-based id) and orders it its own way; B later.
    _ = try world["A"].library.stores.getOrCreate("Corner shop")
    _ = try world["A"].library.stores.setOrder(of: "Corner shop", ["Bakery", "Dairy"])
    _ = try world["B"].library.stores.getOrCreate("corner SHOP")
    _ = try world["B"].library.stores.setOrder(of: "corner shop", ["Dairy", "Produce", "Bakery"])
    _ = try world["A"].library.lists.setStore(of: "Week", to: "Corner shop")
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.stores.all().map(\.displayName).count == 1, "\(device.name)")
      #expect(try aisles(device) == ["Dairy", "Produce", "Bakery"], "\(device.name)")
    }
    // Synced the other way round: A's order, written after B's, wins everywhere.
    world.offline = ["B"]
    _ = try world["A"].library.stores.setOrder(of: "Corner shop", ["Bakery"])
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices { #expect(try aisles(device) == ["Bakery", "Produce", "Dairy"], "\(device.name)") }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func pantryAmountsSetOnTwoDevicesConverge(_ backend: TestBackend) throws {
    let world = try stocked(backend)
    _ = try world["A"].library.recipes.create(RecipeDraft(name: "Porridge", ingredients: ["750 g oats", "1 l milk"]))
    try world.syncUntilQuiet()
    world.offline = ["A", "B"]
    _ = try world["A"].library.pantry.set("oats", amount: "200 g")
    _ = try world["B"].library.pantry.set("Oats", amount: "500 g")
    _ = try world["B"].library.pantry.set("milk", amount: "2 cups")
    _ = try world["A"].library.lists.addRecipe("Porridge", to: "Week")
    world.offline = []
    try world.syncUntilQuiet()
    let first = try shown(world["A"])
    // 750 g needed less B's later 500 g; 1 l less 2 cups (the hand-added milk has no amount).
    #expect(first.contains("oat 250 g") && first.contains("milk 527 ml (+1 without amount)"), "\(first)")
    for device in world.devices {
      #expect(try device.library.pantry.all().map { "\($0.displayName) \($0.onHandAmount ?? "")" } == ["milk 2 cups", "oat 500 g"])
      #expect(try shown(device) == first, "\(device.name)")
    }
    // Used up on A while B lowers it: the later write wins on both.
    world.offline = ["A", "B"]
    _ = try world["B"].library.pantry.set("oats", amount: "100 g")
    _ = try world["A"].library.pantry.remove("oats")
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices { #expect(try device.library.ingredients.find("oats")?.onHand == false, "\(device.name)") }
    #expect(try world.invariantViolations() == [])
  }

  private func planned(_ backend: TestBackend) throws -> SyncWorld {
    let world = try stocked(backend)
    let a = world["A"].library
    var pancakes = RecipeDraft(name: "Pancakes", ingredients: ["2 cups flour", "2 cups milk", "2 eggs"])
    pancakes.yield = "4 servings"
    _ = try a.recipes.create(pancakes)
    _ = try a.recipes.create(RecipeDraft(name: "Toast", ingredients: ["2 slices bread", "1 tbsp butter"]))
    _ = try a.meals.plan(date: "2024-12-09", mealType: "breakfast", recipe: "Pancakes", servings: 8)
    _ = try a.meals.plan(date: "2024-12-10", mealType: "breakfast", recipe: "Toast")
    _ = try a.pantry.set("eggs", amount: "1 dozen")
    try world.syncUntilQuiet()
    return world
  }

  @Test(arguments: TestBackend.allCases)
  func addPlanAfterASyncGivesTheSameListOnEitherDevice(_ backend: TestBackend) throws {
    var lists: [[String]] = []
    for runner in ["A", "B"] {
      let world = try planned(backend)
      let addition = try world[runner].library.lists.addPlan(week: "2024-W50", to: "Week")
      // A dozen eggs on hand cover the four the pancakes need.
      #expect(addition.added.count == 5 && addition.covered.count == 1, "\(runner): \(addition.covered)")
      try world.syncUntilQuiet()
      let list = try shown(world["A"])
      for device in world.devices { #expect(try shown(device) == list, "\(runner) ran it; \(device.name)") }
      lists.append(list)
      #expect(try world.invariantViolations() == [])
    }
    #expect(lists[0] == lists[1])
    #expect(lists[0].contains("flour 4 cups") || lists[0].contains { $0.hasPrefix("flour ") }, "\(lists[0])")
  }

  @Test(arguments: TestBackend.allCases)
  func addPlanRunOnTwoDevicesOfflineAddsEachItemOnce(_ backend: TestBackend) throws {
    let world = try planned(backend)
    let expected = try { () -> [String] in
      let alone = try planned(backend)
      _ = try alone["B"].library.lists.addPlan(week: "2024-W50", to: "Week")
      return try shown(alone["B"])
    }()
    world.offline = ["A", "B"]
    _ = try world["A"].library.lists.addPlan(week: "2024-W50", to: "Week")
    _ = try world["B"].library.lists.addPlan(week: "2024-12-12", to: "Week")
    _ = try world["B"].library.lists.check("milk", on: "Week")
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.lists.items(of: "Week").count == 3 + 5, "\(device.name)")
      #expect(try shown(device) == expected, "\(device.name)")
      // Again after the sync: nothing new.
      #expect(try device.library.lists.addPlan(week: "2024-W50", to: "Week").alreadyOnList == 5)
    }
    try world.syncUntilQuiet()
    #expect(try world.invariantViolations() == [])
  }
}
