import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

/// `addPlan`: the week's planned meals onto a list, scaled to their servings, once.
@Suite struct AddPlanTests {
  private func planned(_ backend: TestBackend) throws -> Library {
    let library = try makeLibrary(backend)
    var pasta = RecipeDraft(name: "Pasta", ingredients: ["500 g spaghetti", "2 cups tomato sauce", "salt"])
    pasta.yield = "4 servings"
    _ = try library.recipes.create(pasta)
    _ = try library.recipes.create(RecipeDraft(name: "Salad", ingredients: ["1 lettuce", "200 g tomato sauce"]))
    _ = try library.ingredients.getOrCreate("salt", isStaple: true)
    _ = try library.meals.plan(date: "2024-12-09", mealType: "dinner", recipe: "Pasta", servings: 8)
    _ = try library.meals.plan(date: "2024-12-11", mealType: "lunch", recipe: "Salad", servings: 2)
    _ = try library.meals.plan(date: "2024-12-16", mealType: "dinner", recipe: "Pasta")  // the next week
    _ = try library.lists.create("Week", week: "2024-W50")
    return library
  }

  private func amounts(_ library: Library) throws -> [String] {
    try library.lists.shoppingList("Week", units: .metric).aisles.flatMap(\.lines).map { "\($0.name) \($0.amountText)" }
  }

  @Test(arguments: TestBackend.allCases)
  func theWeeksMealsGoOnTheListScaledOnce(_ backend: TestBackend) throws {
    let library = try planned(backend)
    let first = try library.lists.addPlan(week: "2024-W50", to: "Week")
    #expect(first.meals.map(\.slotKey) == ["2024-12-09-dinner", "2024-12-11-lunch"])
    #expect(first.added.count == 4 && first.skipped == ["salt"] && first.alreadyOnList == 0)
    // Salad has no yield: its servings cannot scale it.
    #expect(first.unscaled == ["Salad"])
    let shown = try amounts(library)
    #expect(shown == ["spaghetti 1 kg", "tomato sauce 946 ml + 200 g", "lettuce 1"], "\(shown)")
    // Again, or with a date of the week: nothing doubles.
    let again = try library.lists.addPlan(week: "2024-12-13", to: "Week")
    #expect(again.added.isEmpty && again.meals.isEmpty && again.alreadyOnList == 4)
    #expect(try amounts(library) == shown)
    // A removed line stays removed; a slot planned with another recipe adds that recipe.
    _ = try library.lists.removeItem("lettuce", from: "Week")
    _ = try library.meals.plan(date: "2024-12-11", mealType: "lunch", recipe: "Pasta")
    let replanned = try library.lists.addPlan(week: "2024-W50", to: "Week")
    #expect(replanned.added.map(\.displayName) == ["spaghetti", "tomato sauce"])
    // The salad's remaining line leaves with it.
    #expect(replanned.removed.map(\.displayName) == ["tomato sauce"] && replanned.keptAsChanged.isEmpty)
    let after = try amounts(library)
    #expect(after.contains("spaghetti 1.25 kg") && !after.contains { $0.contains("200 g") }, "\(after)")
  }

  /// Re-running follows the plan: servings rescale, a removed meal's lines leave, and
  /// what the shopper checked, changed or added by hand stays as it is.
  @Test(arguments: TestBackend.allCases)
  func runningAgainFollowsThePlanAndLeavesHandWorkAlone(_ backend: TestBackend) throws {
    let library = try planned(backend)
    _ = try library.lists.addPlan(week: "2024-W50", to: "Week")
    _ = try library.lists.addItem("2 lettuce", to: "Week")  // by hand
    // Pasta for 4 instead of 8: its lines follow.
    _ = try library.meals.plan(date: "2024-12-09", mealType: "dinner", recipe: "Pasta", servings: 4)
    let rescaled = try library.lists.addPlan(week: "2024-W50", to: "Week")
    #expect(rescaled.rescaled.map { "\($0.displayName) \($0.quantity ?? "")" } == ["spaghetti 500 g", "tomato sauce 2 cup"])
    #expect(rescaled.added.isEmpty && rescaled.removed.isEmpty && rescaled.alreadyOnList == 2)
    #expect(try amounts(library).contains("spaghetti 500 g"))
    // Checked spaghetti and a tomato sauce amount changed elsewhere stay; a removed meal's
    // unchanged lines leave; the hand-added lettuce stays.
    _ = try library.lists.check("spaghetti", on: "Week")
    let items = try library.lists.items(of: "Week")
    var sauce = try #require(items.first { $0.displayName == "tomato sauce" && $0.quantity == "2 cup" })
    sauce.quantity = "3 cup"
    try library.store.write { try $0.updateRecord(sauce.record) }
    _ = try library.meals.plan(date: "2024-12-09", mealType: "dinner", recipe: "Pasta", servings: 12)
    _ = try library.meals.unplan(date: "2024-12-11", mealType: "lunch")
    let changed = try library.lists.addPlan(week: "2024-W50", to: "Week")
    #expect(changed.rescaled.isEmpty && changed.added.isEmpty)
    #expect(Set(changed.keptAsChanged.map(\.displayName)) == ["spaghetti", "tomato sauce"])
    #expect(Set(changed.removed.map { "\($0.displayName) \($0.quantity ?? "")" }) == ["lettuce 1", "tomato sauce 200 g"])
    let left = try library.lists.items(of: "Week").map { "\($0.displayName) \($0.quantity ?? "")" }
    #expect(left.sorted() == ["lettuce 2", "spaghetti 500 g", "tomato sauce 3 cup"], "\(left)")
    // Nothing more to do.
    let quiet = try library.lists.addPlan(week: "2024-W50", to: "Week")
    #expect(quiet.rescaled.isEmpty && quiet.removed.isEmpty && quiet.added.isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func badInputIsRefusedAndWritesNothing(_ backend: TestBackend) throws {
    let library = try planned(backend)
    #expect(try expectUnchanged(library) { _ = try library.lists.addPlan(week: "2024-W99", to: "Week") } == .invalidWeek("2024-W99"))
    #expect(
      try expectUnchanged(library) { _ = try library.lists.addPlan(week: "2024-W50", to: "Month") } == .notFound(.weeklyList, "Month"))
    for servings in [0, -1, 1_001, .infinity] {
      let refused = try expectUnchanged(library) {
        _ = try library.meals.plan(date: "2024-12-10", mealType: "dinner", recipe: "Pasta", servings: servings)
      }
      #expect(refused?.description.contains("the servings must be a number above 0 and at most 1000") == true)
    }
  }
}
