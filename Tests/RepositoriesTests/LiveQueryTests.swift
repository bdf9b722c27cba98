import Foundation
import Model
import Persistence
import Repositories
import Synchronization
import TestSupport
import Testing

/// The ready-made observed queries: a write through a repository wakes the query with
/// the new value, a write to a kind it does not read does not wake it.
@Suite("Live queries", .timeLimit(.minutes(1)))
struct LiveQueryTests {
  private func stocked(_ backend: TestBackend) throws -> Library {
    let library = try makeLibrary(backend)
    _ = try library.categories.getOrCreate("Produce")
    _ = try library.categories.getOrCreate("Dairy")
    _ = try library.ingredients.getOrCreate("garlic", category: "Produce")
    _ = try library.ingredients.getOrCreate("milk", category: "Dairy")
    _ = try library.lists.create("Week", week: "2026-W47")
    return library
  }

  private static func names(_ list: ShoppingList) -> [String] {
    list.aisles.flatMap { aisle in aisle.lines.map { "\(aisle.category?.displayName ?? "-"): \($0.name) \($0.amountText)" } }
  }

  /// Counts the query's runs through a query observed with the same region.
  final class Runs: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func note() { count.withLock { $0 += 1 } }
  }

  @Test(arguments: TestBackend.allCases)
  func aWeeklyListByAisleUpdatesAfterARepositoryWrite(_ backend: TestBackend) async throws {
    let library = try stocked(backend)
    _ = try library.lists.addItem("1 l milk", to: "Week")
    var lists = library.live.shoppingList("Week").makeAsyncIterator()
    #expect(try await lists.next().map(Self.names) == ["Dairy: milk 1 l"])
    _ = try library.lists.addItem("2 cloves garlic", to: "Week")
    #expect(try await lists.next().map(Self.names) == ["Produce: garlic 2 cloves", "Dairy: milk 1 l"])
    _ = try library.lists.check("milk", on: "Week")
    #expect(try await lists.next().map(Self.names) == ["Produce: garlic 2 cloves"])
  }

  @Test(arguments: TestBackend.allCases)
  func aWriteToAKindTheQueryDoesNotReadDoesNotWakeIt(_ backend: TestBackend) async throws {
    let library = try stocked(backend)
    let runs = Runs()
    let observation = library.live.observe(LiveQueries.shoppingListRegion) { library in
      runs.note()
      return try library.lists.shoppingList("Week").aisles.count
    }
    var counts = observation.makeAsyncIterator()
    #expect(try await counts.next() == 0)
    _ = try library.tags.getOrCreate("Quick")
    _ = try library.recipes.create(RecipeDraft(name: "Toast", ingredients: ["1 slice bread"]))
    try await Task.sleep(for: .milliseconds(50))
    #expect(runs.value == 1)
    _ = try library.lists.addItem("milk", to: "Week")
    #expect(try await counts.next() == 1)
    #expect(runs.value == 2)
  }

  @Test(arguments: TestBackend.allCases)
  func theWeekPlanTheRecipeAndThePantryUpdate(_ backend: TestBackend) async throws {
    let library = try stocked(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Garlic Soup", ingredients: ["4 cloves garlic"]))
    var week = library.live.week("2026-W47").makeAsyncIterator()
    var recipe = library.live.recipe("Garlic Soup").makeAsyncIterator()
    var pantry = library.live.pantry().makeAsyncIterator()
    #expect(try await week.next()?.days.flatMap(\.slots).isEmpty == true)
    #expect(try await recipe.next()?.lines.count == 1)
    #expect(try await pantry.next()?.isEmpty == true)

    _ = try library.meals.plan(date: "2026-11-17", mealType: "dinner", recipe: "Garlic Soup")
    #expect(try await week.next()?.days.flatMap(\.slots).map(\.recipe?.displayName) == ["Garlic Soup"])
    #expect(try await recipe.next()?.plannedMeals.count == 1)
    _ = try library.pantry.add("garlic")
    #expect(try await pantry.next()?.map(\.displayName) == ["garlic"])
  }

  /// The library an observed query runs on reads only.
  @Test(arguments: TestBackend.allCases)
  func aQueryThatWritesIsRefusedAndEndsTheSequence(_ backend: TestBackend) async throws {
    let library = try stocked(backend)
    var values = library.live.observe(StoreRegion(.tag)) { try $0.tags.getOrCreate("Quick") }.makeAsyncIterator()
    await #expect(throws: RepositoryError.readOnly) { try await values.next() }
    #expect(try await values.next() == nil)
    #expect(try library.tags.all().isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func aListThatIsDeletedEndsTheSequenceWithNotFound(_ backend: TestBackend) async throws {
    let library = try stocked(backend)
    var lists = library.live.shoppingList("Week").makeAsyncIterator()
    #expect(try await lists.next() != nil)
    _ = try library.lists.delete("Week")
    await #expect(throws: RepositoryError.notFound(.weeklyList, "Week")) { try await lists.next() }
  }
}
