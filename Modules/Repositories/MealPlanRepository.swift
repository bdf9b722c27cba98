import Foundation
public import Model
import Normalization
import Persistence

/// Named meal plans. Duplicates are allowed: two plans may share a name.
public struct MealPlanRepository {
  let context: RepositoryContext

  /// Creates a meal plan, optionally for an ISO week ("2026-W47" or a date in it).
  public func create(_ name: String, week: String? = nil) throws -> MealPlan {
    let cleaned = try NameRules.clean(name, for: .mealPlan)
    let weekID = try week.map { try PlannedMealRepository.isoWeek($0).description }
    return try context.write { writer in
      let plan = MealPlan(meta: context.newMeta(id: context.newID()), displayName: cleaned, weekIdentifier: weekID)
      try writer.insert(plan)
      return plan
    }
  }

  /// All live meal plans by name.
  public func all() throws -> [MealPlan] { try context.read { try $0.entities(MealPlan.self, RecordQuery(.mealPlan)) } }
}
