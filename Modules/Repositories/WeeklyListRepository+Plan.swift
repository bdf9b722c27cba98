import Foundation
public import Model
import Persistence

extension WeeklyListRepository {
  /// What ``addPlan(week:to:includeOnHand:)`` did.
  public struct PlanAddition: Sendable {
    /// The meals of the week whose recipe added at least one item, by slot.
    public let meals: [PlannedMeal]
    /// The items added to the list.
    public let added: [GroceryListItem]
    /// Ingredients left off because they are staples or in the pantry without an amount, by name.
    public let skipped: [String]
    /// Ingredients added whose pantry amount covers all the list needs of them now.
    public let covered: [String]
    /// Lines an earlier `add-plan` of the same meals already put on the list (or that
    /// were removed from it since): not added again.
    public let alreadyOnList: Int
    /// Recipes whose meal has servings but whose yield has no number: added as written.
    public let unscaled: [String]
  }

  /// Adds the recipe of every meal planned in an ISO week to a list, each scaled to its
  /// meal's servings when the meal has some, skipping staples and pantry ingredients
  /// without an amount (unless `includeOnHand`), as ``addRecipe(_:to:scaledBy:includeOnHand:)`` does.
  ///
  /// Each item's id is made from the list, the meal, its recipe and the recipe line
  /// (a name-based id), so running it again adds nothing twice — a line already added, or
  /// removed from the list since, keeps its id — and two devices that run it offline for
  /// one list add the same items, which sync merges into one each. A meal planned with
  /// another recipe since adds that recipe's lines.
  /// - Throws: ``RepositoryError`` for an unknown list or a bad week; nothing is written then.
  public func addPlan(week: String, to listNameOrID: String, includeOnHand: Bool = false) throws -> PlanAddition {
    try context.write { writer in
      let list = try require(listNameOrID, in: writer)
      let bound = context.bound(to: writer)
      let plan = try PlannedMealRepository(context: bound).week(week)
      var meals: [PlannedMeal] = []
      var added: [GroceryListItem] = []
      var skipped: [String] = []
      var already = 0
      var unscaled: [String] = []
      for slot in plan.days.flatMap(\.slots) {
        guard let recipe = slot.recipe else { continue }
        var details = try RecipeRepository(context: bound).details(recipe.id.uuidString)
        if let servings = slot.meal.servings {
          if let yield = RecipeScale.servings(inYield: recipe.recipeYield) {
            details = details.scaled(by: servings / yield)
          } else if !unscaled.contains(recipe.displayName) {
            unscaled.append(recipe.displayName)
          }
        }
        let lines = try addLines(of: details, to: list, includeOnHand: includeOnHand, in: writer) { line in
          DeterministicID.make(
            kind: .groceryListItem,
            semanticKey: "plan|\(list.id.shortText)|\(slot.meal.id.shortText)|\(recipe.id.shortText)|\(line.id.shortText)")
        }
        if !lines.added.isEmpty { meals.append(slot.meal) }
        added += lines.added
        already += lines.alreadyTaken
        for name in lines.skipped where !skipped.contains(name) { skipped.append(name) }
      }
      return PlanAddition(
        meals: meals, added: added, skipped: skipped, covered: try covered(on: list, among: added, in: writer), alreadyOnList: already,
        unscaled: unscaled)
    }
  }
}
