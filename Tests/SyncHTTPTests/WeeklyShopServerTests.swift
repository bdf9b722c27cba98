import Foundation
import Model
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import TestSupport
import Testing

/// Issue 36 through `forager-server` over real HTTP on loopback: a store ordered on two
/// devices, pantry amounts set on both, the week's plan added on both offline — one store,
/// one order, one amount and one list after they sync.
@Suite(.timeLimit(.minutes(10)))
struct WeeklyShopServerTests {
  /// What a shopper sees: the list by aisle in its store's order, and the pantry.
  private static func shown(_ device: Device) throws -> [String] {
    let list = try device.library.lists.shoppingList("Week", units: .metric, includeDone: true)
    let lines = list.aisles.flatMap { aisle in aisle.lines.map { "\(aisle.category?.displayName ?? "-"): \($0.name) \($0.amountText)" } }
    let pantry = try device.library.pantry.all().map { "pantry \($0.displayName) \($0.onHandAmount ?? "some")" }
    return ["at \(list.store?.displayName ?? "default")"] + lines + pantry
  }

  static func checkAWeeksShoppingConverges(_ storage: any HouseholdStorage) async throws {
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    try await withServer(storage) { url, _ in
      try await onThread {
        let clock = TickingClock()
        let phone = try Device(
          "phone", cloud: HTTPCloud(url: url, token: secrets[0], household: "Smith", timeout: .seconds(10)), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
        let home = phone.library
        for name in ["Produce", "Dairy", "Pantry"] { _ = try home.categories.getOrCreate(name) }
        _ = try home.ingredients.getOrCreate("milk", category: "Dairy")
        _ = try home.ingredients.getOrCreate("oats", category: "Pantry")
        _ = try home.ingredients.getOrCreate("apple", category: "Produce")
        var porridge = RecipeDraft(name: "Porridge", ingredients: ["100 g oats", "1 cup milk", "1 apple"])
        porridge.yield = "1 serving"
        _ = try home.recipes.create(porridge)
        _ = try home.meals.plan(date: "2024-12-10", mealType: "breakfast", recipe: "Porridge", servings: 4)
        _ = try home.lists.create("Week", week: "2024-W50")
        try phone.engine.sync()
        try laptop.engine.sync()
        // Offline on both: one store, ordered two ways; two amounts of oats; the plan twice.
        _ = try phone.library.stores.getOrCreate("Corner shop")
        _ = try phone.library.stores.setOrder(of: "Corner shop", ["Dairy"])
        _ = try phone.library.pantry.set("oats", amount: "150 g")
        _ = try phone.library.lists.addPlan(week: "2024-W50", to: "Week")
        // Each device reads the server's time to within half a round trip (at most a second,
        // `ServerClock`): the laptop writes seconds later, so "later" holds on the
        // household's clock however loaded the machine is.
        clock.advance(milliseconds: 5_000)
        _ = try laptop.library.stores.getOrCreate("corner shop")
        _ = try laptop.library.stores.setOrder(of: "Corner shop", ["Pantry", "Produce"])
        _ = try laptop.library.pantry.set("oats", amount: "250 g")
        _ = try laptop.library.lists.addPlan(week: "2024-12-12", to: "Week")
        _ = try laptop.library.lists.setStore(of: "Week", to: "Corner shop")
        for device in [phone, laptop, phone] { try device.engine.sync() }
        let seen = try shown(phone)
        #expect(try shown(laptop) == seen)
        // The laptop wrote later: its order and its amount; the plan's lines once each.
        #expect(
          seen == [
            "at corner shop", "Pantry: oats 150 g", "Produce: apple 4", "Dairy: milk 946 ml", "pantry oats 250 g",
          ], "\(seen)")
        #expect(try phone.library.lists.items(of: "Week").count == 3)
        #expect(try phone.engine.pendingChangeCount() == 0 && laptop.engine.pendingChangeCount() == 0)
      }
    }
  }

  @Test func aWeeksShoppingConvergesThroughTheServer() async throws {
    try await Self.checkAWeeksShoppingConverges(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aWeeksShoppingConvergesThroughTheServerOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkAWeeksShoppingConverges(storage) }
  }
}
