import Foundation
public import Model
import Normalization
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
    /// Lines an earlier `add-plan` of the same meals already put on the list with the
    /// amount the plan gives now (or that were removed from it since): not added again.
    public let alreadyOnList: Int
    /// Recipes whose meal has servings but whose yield has no number: added as written.
    public let unscaled: [String]
    /// Items whose amount followed their meal's changed servings (as they are now).
    public let rescaled: [GroceryListItem]
    /// Items taken off the list: their meal is gone, has another recipe now, or its recipe
    /// lost the line.
    public let removed: [GroceryListItem]
    /// Items that would have followed the plan or left the list but were checked, or
    /// whose amount was changed by hand (or that an add-plan before schema v6 added):
    /// left as they are.
    public let keptAsChanged: [GroceryListItem]
  }

  /// Puts the recipe of every meal planned in an ISO week on a list, each scaled to its
  /// meal's servings when the meal has some, skipping staples and pantry ingredients
  /// without an amount (unless `includeOnHand`), as ``addRecipe(_:to:scaledBy:includeOnHand:)`` does;
  /// run again, it brings the list back in line with the plan.
  ///
  /// Each item's id is made from the list, the meal, its recipe and the recipe line (a
  /// name-based id), and the item keeps the amount it was given (`planAmount`). A later run
  /// therefore knows its own items: one whose meal's servings changed takes the new
  /// amount; one whose meal was removed, re-planned with another recipe, or whose recipe
  /// lost the line, leaves the list; a line already there with its amount, or removed from
  /// the list since, is not added again. An item that is checked, or whose amount is no
  /// longer the one add-plan gave it, is never changed or removed, and items added by hand
  /// are not add-plan's. Two devices that run it offline for one list write the same
  /// items, which sync merges into one each.
  /// - Throws: ``RepositoryError`` for an unknown list or a bad week; nothing is written then.
  public func addPlan(week: String, to listNameOrID: String, includeOnHand: Bool = false) throws -> PlanAddition {
    try context.write { writer in
      let list = try require(listNameOrID, in: writer)
      let bound = context.bound(to: writer)
      let plan = try PlannedMealRepository(context: bound).week(week)
      let now = context.now()
      var meals: [PlannedMeal] = []
      var added: [GroceryListItem] = []
      var skipped: [String] = []
      var already = 0
      var unscaled: [String] = []
      var rescaled: [GroceryListItem] = []
      var kept: [GroceryListItem] = []
      var wanted = Set<UUID>()
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
        var addedForMeal = false
        for line in details.lines {
          if !includeOnHand, let template = line.template, template.isStaple || (template.onHand && template.onHandAmount == nil) {
            if !skipped.contains(template.displayName) { skipped.append(template.displayName) }
            continue
          }
          let id = Self.planItemID(list: list.id, meal: slot.meal.id, recipe: recipe.id, line: line.ingredient.id)
          wanted.insert(id)
          let quantity = Self.amountText(
            line.ingredient.quantity, unit: line.ingredient.unit, packageSize: IngredientLine.parse(line.ingredient.rawLine).packageSize)
          guard let record = try writer.record(.groceryListItem, id: id) else {
            added.append(
              try insertItem(
                line.template?.displayName ?? line.ingredient.rawLine, quantity: quantity, source: .recipe, list: list,
                template: line.template?.id, recipe: recipe.id, id: id, planAmount: quantity ?? "", in: writer))
            addedForMeal = true
            continue
          }
          // A removed line stays removed.
          guard record.meta.isLive else {
            already += 1
            continue
          }
          var item = try GroceryListItem(record: record)
          if item.quantity == quantity {
            already += 1
          } else if Self.isAsPlanLeftIt(item) {
            item.quantity = quantity
            item.planAmount = quantity ?? ""
            try writer.save(item, at: now)
            rescaled.append(item)
          } else {
            kept.append(item)
          }
        }
        if addedForMeal { meals.append(slot.meal) }
      }
      var removed: [GroceryListItem] = []
      for item in try planItems(on: list, week: plan.week, in: writer) where !wanted.contains(item.id) {
        if Self.isAsPlanLeftIt(item) {
          try DeleteRules.delete(.groceryListItem, id: item.id, name: item.displayName, in: writer, at: now)
          removed.append(item)
        } else {
          kept.append(item)
        }
      }
      return PlanAddition(
        meals: meals, added: added, skipped: skipped, covered: try covered(on: list, among: added + rescaled, in: writer),
        alreadyOnList: already, unscaled: unscaled, rescaled: rescaled, removed: removed, keptAsChanged: kept)
    }
  }

  /// The name-based id of the item a plan's line becomes on a list.
  static func planItemID(list: UUID, meal: UUID, recipe: UUID, line: UUID) -> UUID {
    DeterministicID.make(
      kind: .groceryListItem, semanticKey: "plan|\(list.shortText)|\(meal.shortText)|\(recipe.shortText)|\(line.shortText)")
  }

  /// Unchecked, with the amount add-plan last gave it: add-plan may change or remove it.
  static func isAsPlanLeftIt(_ item: GroceryListItem) -> Bool {
    guard let planAmount = item.planAmount, !item.isCompleted else { return false }
    return (item.quantity ?? "") == planAmount
  }

  /// The live items on the list that an add-plan of `week` put there: those whose id is a
  /// plan id of one of the week's slots (its meals, removed ones too), the item's recipe
  /// and one of that recipe's lines (removed ones too).
  private func planItems(on list: WeeklyList, week: String, in reader: any StoreReader) throws -> [GroceryListItem] {
    let candidates = try items(of: list, in: reader).filter { $0.source == .recipe && $0.sourceRecipe != nil }
    guard !candidates.isEmpty else { return [] }
    let isoWeek = try PlannedMealRepository.isoWeek(week)
    let slotKeys = PlannedMealRepository.days(of: isoWeek).flatMap { date in
      MealType.allCases.map { RecordFilter.equals("slotKey", .text(PlannedMealRepository.slotKey(date, $0))) }
    }
    let meals = try reader.fetch(RecordQuery(.plannedMeal, filters: [.anyOf(slotKeys)], includeDeleted: true)).map(\.id)
    var ids = Set<UUID>()
    for recipe in Set(candidates.compactMap(\.sourceRecipe)) {
      let lines = try reader.fetch(RecordQuery(.recipeIngredient, filters: [.references("recipe", recipe)], includeDeleted: true))
      for meal in meals {
        for line in lines { ids.insert(Self.planItemID(list: list.id, meal: meal, recipe: recipe, line: line.id)) }
      }
    }
    return candidates.filter { ids.contains($0.id) }
  }
}
