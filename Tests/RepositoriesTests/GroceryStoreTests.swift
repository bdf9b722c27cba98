import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Stores: unique by name, each with its own aisle order that `shoppingList` follows.
@Suite struct GroceryStoreTests {
  private func aisles(_ library: Library, store: String? = nil) throws -> [String] {
    try library.lists.shoppingList("Week", store: store).aisles.map { $0.category?.displayName ?? "-" }
  }

  private func stocked(_ backend: TestBackend) throws -> Library {
    let library = try makeLibrary(backend)
    for name in ["Produce", "Dairy", "Bakery"] { _ = try library.categories.getOrCreate(name) }
    for (name, category) in [("milk", "Dairy"), ("apples", "Produce"), ("bread", "Bakery"), ("salt", nil)] {
      _ = try library.ingredients.getOrCreate(name, category: category)
    }
    _ = try library.lists.create("Week", week: "2024-W50")
    for item in ["milk", "apples", "bread", "salt"] { _ = try library.lists.addItem(item, to: "Week") }
    return library
  }

  @Test(arguments: TestBackend.allCases)
  func aStoreIsOnePerNameWithItsNameBasedID(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let (first, created) = try library.stores.getOrCreate("Trader Joe's")
    let (again, createdAgain) = try library.stores.getOrCreate("  TRADER JOE'S ")
    #expect(created && !createdAgain && first.id == again.id)
    #expect(first.id == DeterministicID.make(kind: .groceryStore, semanticKey: "trader joe's"))
    #expect(try library.stores.all().map(\.displayName) == ["Trader Joe's"])
    _ = try library.stores.getOrCreate("Costco")
    let refused = try expectUnchanged(library) { _ = try library.stores.rename("Costco", to: "trader joe's") }
    #expect(refused?.description.contains("store 'Trader Joe's' already exists") == true)
    #expect(try library.stores.rename("Costco", to: "Costco Wholesale").normalizedName == "costco wholesale")
  }

  @Test(arguments: TestBackend.allCases)
  func aListFollowsItsStoresOrderThenTheDefaultOrder(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    #expect(try aisles(library) == ["Produce", "Dairy", "Bakery", "-"])
    _ = try library.stores.getOrCreate("Corner shop")
    _ = try library.stores.setOrder(of: "corner shop", ["Bakery", "Dairy"])
    #expect(try aisles(library, store: "Corner Shop") == ["Bakery", "Dairy", "Produce", "-"])
    #expect(try library.stores.aisleOrder("Corner shop").prefix(3).map(\.displayName) == ["Bakery", "Dairy", "Produce"])
    // The list remembers its store; --store overrides it; clearing goes back to the default.
    _ = try library.lists.setStore(of: "Week", to: "Corner shop")
    #expect(try aisles(library) == ["Bakery", "Dairy", "Produce", "-"])
    #expect(try library.lists.shoppingList("Week").store?.displayName == "Corner shop")
    _ = try library.stores.getOrCreate("Market")
    #expect(try aisles(library, store: "Market") == ["Produce", "Dairy", "Bakery", "-"])
    _ = try library.lists.setStore(of: "Week", to: nil)
    #expect(try aisles(library) == ["Produce", "Dairy", "Bakery", "-"])
  }

  @Test(arguments: TestBackend.allCases)
  func deletingAStoreOrACategoryLeavesTheOthersOrdered(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.stores.getOrCreate("Corner shop")
    _ = try library.stores.setOrder(of: "Corner shop", ["Bakery", "Dairy"])
    _ = try library.lists.setStore(of: "Week", to: "Corner shop")
    _ = try library.categories.delete("Bakery")
    #expect(try library.stores.find("Corner shop")?.aisleOrder.count == 1)
    #expect(try aisles(library) == ["Dairy", "Produce", "-"])
    _ = try library.stores.delete("Corner shop")
    #expect(try library.lists.find("Week")?.store == nil)
    #expect(try aisles(library) == ["Produce", "Dairy", "-"])
  }

  @Test(arguments: TestBackend.allCases)
  func badOrdersAreRefusedAndWriteNothing(_ backend: TestBackend) throws {
    let library = try stocked(backend)
    _ = try library.stores.getOrCreate("Corner shop")
    let twice = try expectUnchanged(library) { _ = try library.stores.setOrder(of: "Corner shop", ["Dairy", "dairy"]) }
    #expect(twice?.description == "order 'dairy': 'Dairy' is named twice")
    let unknown = try expectUnchanged(library) { _ = try library.stores.setOrder(of: "Corner shop", ["Dairy", "Deli"]) }
    #expect(unknown == .notFound(.category, "Deli"))
    let noStore = try expectUnchanged(library) { _ = try library.lists.setStore(of: "Week", to: "Aldi") }
    #expect(noStore == .notFound(.groceryStore, "Aldi"))
    let control = try expectUnchanged(library) { _ = try library.stores.getOrCreate("Corner\u{1B}[31m shop") }
    #expect(control?.description.contains("holds") == true)
    #expect(throws: RepositoryError.notFound(.groceryStore, "Aldi")) { try library.lists.shoppingList("Week", store: "Aldi") }
  }
}
