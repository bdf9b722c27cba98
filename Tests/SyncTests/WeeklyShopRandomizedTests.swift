import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Seeded random work on stores, pantry amounts and the week's plan — stores added under
/// names that fold alike, renamed, deleted and ordered, lists given a store, amounts set,
/// added and removed, meals planned with servings, plans added to lists — on 3–5 devices with
/// offline periods and interrupted syncs (the worlds of ``RandomizedConvergenceTests``, on
/// both backends by the seed's parity). After a final sync every invariant holds and every
/// device shows each list the same, line for line.
@Suite("Randomized stores, pantry amounts and add-plan")
struct WeeklyShopRandomizedTests {
  static let seeds: [UInt64] = [1, 2, 3, 4]

  @Test(arguments: seeds)
  func shopsPantryAndPlansConvergeAfterRandomWork(seed: UInt64) throws {
    let world = try RandomizedConvergenceTests.run(seed: seed, operations: 500, step: Self.work)
    let shown = try world.devices.map { device in
      try device.library.lists.all().map { list in
        let shopping = try device.library.lists.shoppingList(list.id.uuidString, units: .metric, includeDone: true)
        let lines = shopping.aisles.flatMap { aisle in
          aisle.lines.map { "\(aisle.category?.displayName ?? "-") \($0.name) \($0.amountText)" }
        }
        return "\(list.weekIdentifier) \(list.displayName) at \(shopping.store?.displayName ?? "default"): \(lines)"
      }
    }
    #expect(!shown[0].isEmpty && shown.allSatisfy { $0 == shown[0] }, "seed \(seed): \(shown)")
  }

  /// One step: a few stores, categories, foods, two weeks of meals.
  static func work(_ device: SyncWorld.Device, _ world: SyncWorld, _ s: inout RandomizedConvergenceTests.Schedule) throws {
    let library = device.library
    let stores = ["Corner shop", "corner SHOP", "Market", "Costco"]
    let categories = ["Produce", "Dairy", "Pantry"]
    let foods = [("milk", "Dairy"), ("rice", "Pantry"), ("apple", "Produce")]
    let amounts = ["500 g", "1 kg", "2 cups", "3", "1 l"]
    let days = ["2024-12-09", "2024-12-10", "2024-12-16"]
    switch s.next() % 14 {
    case 0:
      // The shared base every step may name: categories, foods in them, two recipes, a list.
      for category in categories { s.created(try library.categories.getOrCreate(category)) }
      for (food, category) in foods { s.created(try library.ingredients.getOrCreate(food, category: category)) }
      for (name, lines) in [("Rice pudding", ["200 g rice", "1 l milk"]), ("Apple rice", ["2 apple", "100 g rice"])] {
        var draft = RecipeDraft(name: name, ingredients: lines)
        draft.yield = "2 servings"
        if case .created(let recipe) = try library.recipes.create(draft) { s.created(recipe) }
      }
      s.created(try library.lists.create("Week", week: "2024-W50"))
    case 1:
      s.created(try library.stores.getOrCreate(s.pick(stores)).store)
    case 2:
      _ = try library.stores.rename(s.pick(stores), to: s.pick(stores))
    case 3:
      s.deleted(try library.stores.delete(s.pick(stores)))
    case 4, 5:
      var order: [String] = []
      for _ in 0..<(s.next() % 4) {
        let category = s.pick(categories)
        if !order.contains(category) { order.append(category) }
      }
      _ = try library.stores.setOrder(of: s.pick(stores), order)
    case 6:
      _ = try library.lists.setStore(of: "Week", to: s.next() % 3 == 0 ? nil : s.pick(stores))
    case 7:
      s.created(try library.pantry.set(s.pick(foods).0, amount: s.pick(amounts)))
    case 8:
      _ = s.next() % 2 == 0 ? try library.pantry.add(s.pick(foods).0) : try library.pantry.remove(s.pick(foods).0)
    case 9:
      let servings = s.next() % 3 == 0 ? nil : Double(1 + s.next() % 6)
      s.created(
        try library.meals.plan(date: s.pick(days), mealType: "dinner", recipe: s.pick(["Rice pudding", "Apple rice"]), servings: servings)
          .meal)
    case 10:
      // A re-run follows the plan: the items it takes off are its user's deletes.
      let addition = try library.lists.addPlan(week: s.pick(["2024-W50", "2024-W51"]), to: "Week")
      for item in addition.added { s.created(item) }
      for item in addition.removed { s.deleted(item) }
    case 11:
      for item in try library.lists.removeItem(s.pick(foods).0, from: "Week") { s.deleted(item) }
    case 12:
      RandomizedConvergenceTests.toggleOffline(device, world)
    default:
      try RandomizedConvergenceTests.syncIfOnline(device, world) { s.next() % 3 == 0 }
    }
  }
}
