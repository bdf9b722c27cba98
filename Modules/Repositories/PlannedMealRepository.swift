import Foundation
public import Model
import Normalization
import Persistence

/// Planned meals: one per slot (a civil date and a meal type). Planning a slot again
/// replaces its recipe.
public struct PlannedMealRepository {
  let context: RepositoryContext

  /// What planning a slot did.
  public struct Outcome: Sendable, Hashable {
    /// The planned meal of the slot.
    public let meal: PlannedMeal
    /// The recipe now planned.
    public let recipe: Recipe
    /// The recipe the slot held before, when planning replaced one.
    public let replaced: Recipe?
  }

  /// Plans `recipe` for the slot, replacing whatever the slot held.
  /// - Parameters:
  ///   - date: "YYYY-MM-DD".
  ///   - mealType: breakfast, lunch, dinner or snack (any case).
  ///   - recipe: a recipe title or id.
  ///   - notes: notes on the meal.
  ///   - servings: how many servings to make (above 0, at most 1,000): `list add-plan`
  ///     scales the recipe to it. Nil keeps what the slot had.
  /// - Throws: ``RepositoryError/invalidDate(_:)``, ``RepositoryError/unknownMealType(_:)``,
  ///   ``RepositoryError/notFound(_:_:)``, ``RepositoryError/invalidValue(field:value:reason:)``
  ///   for servings out of range.
  public func plan(date: String, mealType: String, recipe: String, notes: String? = nil, servings: Double? = nil) throws -> Outcome {
    let day = try Self.date(date)
    let type = try Self.mealType(mealType)
    if let servings, !(servings.isFinite && servings > 0 && servings <= RecipeScale.maximumServings) {
      throw RepositoryError.invalidValue(
        field: "servings", value: WeeklyListRepository.format(servings),
        reason: "the servings must be a number above 0 and at most \(Int(RecipeScale.maximumServings))")
    }
    return try context.write { writer in
      let recipeEntity = try RecipeRepository(context: context).require(recipe, in: writer)
      let key = Self.slotKey(day, type)
      let now = context.now()
      if var meal = try writer.entities(PlannedMeal.self, key: key).first {
        let previous = try meal.recipe.flatMap { try writer.entity(Recipe.self, id: $0) }
        meal.recipe = recipeEntity.id
        if let notes { meal.notes = notes }
        if let servings { meal.servings = servings }
        try writer.save(meal, at: now)
        return Outcome(meal: meal, recipe: recipeEntity, replaced: previous?.id == recipeEntity.id ? nil : previous)
      }
      let id = try writer.freeDeterministicID(.plannedMeal, key: key)
      let meal = PlannedMeal(
        meta: context.newMeta(id: id), date: day, mealType: type, slotKey: key, recipe: recipeEntity.id, notes: notes, servings: servings)
      try writer.insert(meal)
      var used = recipeEntity
      used.usageCount += 1
      used.lastUsed = now
      try writer.save(used, at: now)
      return Outcome(meal: meal, recipe: recipeEntity, replaced: nil)
    }
  }

  /// The meal planned for a slot, if any.
  public func meal(date: String, mealType: String) throws -> PlannedMeal? {
    let key = Self.slotKey(try Self.date(date), try Self.mealType(mealType))
    return try context.read { try $0.entities(PlannedMeal.self, key: key).first }
  }

  /// Clears a slot.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` when nothing is planned there.
  public func unplan(date: String, mealType: String) throws -> PlannedMeal {
    let key = Self.slotKey(try Self.date(date), try Self.mealType(mealType))
    return try context.write { writer in
      guard let meal = try writer.entities(PlannedMeal.self, key: key).first else {
        throw RepositoryError.notFound(.plannedMeal, key)
      }
      try DeleteRules.delete(.plannedMeal, id: meal.id, name: key, in: writer, at: context.now())
      return meal
    }
  }

  /// One ISO week of planned meals, Monday first.
  public struct Week: Sendable, Hashable {
    /// One day of the week with its planned slots.
    public struct Day: Sendable, Hashable {
      /// The day's date.
      public let date: CivilDate
      /// The day's planned meals, in meal-slot order.
      public let slots: [Slot]
    }

    /// One planned meal slot.
    public struct Slot: Sendable, Hashable {
      /// The planned meal.
      public let meal: PlannedMeal
      /// Its recipe; nil when the recipe is gone.
      public let recipe: Recipe?
    }

    /// "2026-W47".
    public let week: String
    /// The seven days, Monday first.
    public let days: [Day]
  }

  /// The planned meals of the ISO week given as "YYYY-Www" or as any date in it.
  ///
  /// Reads the week's slots by their keys (7 days × 4 meal types, an indexed lookup
  /// each), not the meals of every week.
  public func week(_ weekOrDate: String) throws -> Week {
    let week = try Self.isoWeek(weekOrDate)
    let dates = Self.days(of: week)
    return try context.read { reader in
      let filters = dates.flatMap { date in MealType.allCases.map { RecordFilter.equals("slotKey", .text(Self.slotKey(date, $0))) } }
      let meals = try reader.entities(PlannedMeal.self, RecordQuery(.plannedMeal, filters: [.anyOf(filters)], sort: [SortKey("date")]))
      let days = try dates.map { date in
        let slots = try meals.filter { $0.date == date }.sorted { $0.mealType < $1.mealType }.map { meal in
          Week.Slot(meal: meal, recipe: try meal.recipe.flatMap { try reader.entity(Recipe.self, id: $0) })
        }
        return Week.Day(date: date, slots: slots)
      }
      return Week(week: week.description, days: days)
    }
  }

  /// Every planned meal from `from` through `through` (both included; nil leaves that
  /// end open), in date and meal order, each with its recipe: what `meal export` writes.
  public func slots(from: CivilDate?, through: CivilDate?) throws -> [Week.Slot] {
    try context.read { reader in
      let meals = try reader.entities(PlannedMeal.self, RecordQuery(.plannedMeal, sort: [SortKey("date")]))
        .filter { meal in (from.map { meal.date >= $0 } ?? true) && (through.map { meal.date <= $0 } ?? true) }
        .sorted { ($0.date, $0.mealType) < ($1.date, $1.mealType) }
      return try meals.map { meal in Week.Slot(meal: meal, recipe: try meal.recipe.flatMap { try reader.entity(Recipe.self, id: $0) }) }
    }
  }

  // MARK: Parsing

  static func date(_ text: String) throws(RepositoryError) -> CivilDate {
    guard let date = CivilDate(iso: text.trimmingCharacters(in: .whitespaces)) else { throw .invalidDate(text) }
    return date
  }

  static func mealType(_ text: String) throws(RepositoryError) -> MealType {
    guard let type = MealType(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
      throw .unknownMealType(text)
    }
    return type
  }

  static func slotKey(_ date: CivilDate, _ type: MealType) -> String {
    SemanticKey.slotKey(year: date.year, month: date.month, day: date.day, mealType: type.rawValue)
  }

  /// The week's days, Monday first, that are valid civil dates (all seven except at the
  /// edges of the years 1–9999).
  static func days(of week: ISOWeek) -> [CivilDate] {
    (0..<7).compactMap { offset in
      let day = CivilCalendar.adding(days: offset, to: week.monday)
      return CivilDate(year: day.year, month: day.month, day: day.day)
    }
  }

  static func isoWeek(_ text: String) throws(RepositoryError) -> ISOWeek {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let week = ISOWeek(parsing: trimmed) { return week }
    if let date = CivilDate(iso: trimmed), let week = ISOWeek.containing(year: date.year, month: date.month, day: date.day) {
      return week
    }
    throw .invalidWeek(text)
  }
}
