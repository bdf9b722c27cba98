import CommandLanguage
import Foundation
import Model
import Repositories

/// meal plan, show, clear, week, export (MealCalendarCommands.swift); mealplan add, list.
enum MealCommands {
  static let group = CommandGroup(
    "meal", summary: "Meal planning (one meal per date and meal type)",
    commands: [plan, show, clear, week, export, planAdd, planList])

  static let mealTypes = MealType.allCases.map(\.rawValue)

  static let plan = CommandSpec(
    "meal plan", summary: "Plan a recipe for a date and meal type; planning the slot again replaces its recipe.",
    parameters: [
      .word("date", .date, help: "YYYY-MM-DD"),
      .word("meal", .mealType, completion: .words(mealTypes), help: mealTypes.joined(separator: ", ")),
      .rest("recipe", completion: .names(.recipe), help: "a recipe title or id"),
    ],
    options: [
      .value("notes", "a note for this meal", placeholder: "TEXT"),
      .value(
        "servings", "how many servings to make: list add-plan scales the recipe to it", .number, range: RecipeCommands.servingsRange),
    ],
    examples: [
      "meal plan 2024-12-13 dinner Egg Fried Rice", "meal plan 2024-12-14 lunch \"Caesar Salad\" --notes \"double the dressing\"",
      "meal plan 2024-12-15 dinner Egg Fried Rice --servings 6",
    ]
  ) { invocation, session in
    let outcome = try session.library.meals.plan(
      date: invocation.argument("date"), mealType: invocation.argument("meal"), recipe: invocation.argument("recipe"),
      notes: invocation.option("notes"), servings: invocation.option("servings").flatMap(Double.init))
    var text = "planned '\(outcome.recipe.displayName)' for \(outcome.meal.date) \(outcome.meal.mealType.rawValue)"
    if let replaced = outcome.replaced { text += " (replacing '\(replaced.displayName)')" }
    return CommandResult(
      .message(text),
      .fields(key: "meal", fields(outcome.meal, recipe: outcome.recipe.displayName, replaced: outcome.replaced?.displayName)))
  }

  static func fields(_ meal: PlannedMeal, recipe: String?, replaced: String? = nil) -> [CommandResult.Field] {
    [
      .init("date", .string(meal.date.description)), .init("meal", .string(meal.mealType.rawValue)),
      .init("recipe", .text(recipe)), .init("notes", .text(meal.notes)), .init("slot", .string(meal.slotKey)),
      .init("replaced", .text(replaced)), .init("servings", .number(meal.servings)),
    ]
  }

  static let show = CommandSpec(
    "meal show", summary: "What is planned for one date and meal type.",
    parameters: [.word("date", .date), .word("meal", .mealType, completion: .words(mealTypes))],
    examples: ["meal show 2024-12-13 dinner"]
  ) { invocation, session in
    guard let meal = try session.library.meals.meal(date: invocation.argument("date"), mealType: invocation.argument("meal")) else {
      return CommandResult(
        .message("nothing planned for \(invocation.argument("date")) \(invocation.argument("meal"))"), .data(key: "meal", .null))
    }
    let recipe = try meal.recipe.flatMap { try session.library.recipes.find($0.uuidString)?.displayName }
    return CommandResult(.fields(key: "meal", fields(meal, recipe: recipe)))
  }

  static let clear = CommandSpec(
    "meal clear", summary: "Remove the meal planned for a date and meal type.",
    parameters: [.word("date", .date), .word("meal", .mealType, completion: .words(mealTypes))],
    examples: ["meal clear 2024-12-13 dinner"]
  ) { invocation, session in
    let meal = try session.library.meals.unplan(date: invocation.argument("date"), mealType: invocation.argument("meal"))
    return CommandResult(.message("cleared \(meal.date) \(meal.mealType.rawValue)"))
  }

  static let week = CommandSpec(
    "meal week", summary: "The meals of an ISO week, Monday first (this week when none is given).",
    parameters: [.word("week", .week, optional: true, help: "YYYY-Www (2024-W50) or any date in the week")],
    examples: ["meal week 2024-W50", "meal week 2024-12-13", "meal week"]
  ) { invocation, session in
    let week = try session.library.meals.week(invocation.optionalArgument("week") ?? today(session))
    var rows: [[JSONValue]] = []
    for day in week.days {
      let weekday = weekdayName(day.date)
      if day.slots.isEmpty {
        rows.append([.string(day.date.description), .string(weekday), .null, .null, .null])
      }
      for slot in day.slots {
        rows.append([
          .string(day.date.description), .string(weekday), .string(slot.meal.mealType.rawValue),
          .text(slot.recipe?.displayName), .text(slot.meal.notes),
        ])
      }
    }
    return CommandResult(
      .message("week \(week.week)"), .data(key: "week", .string(week.week)),
      .table(
        Table(
          key: "days",
          columns: [Table.Column("date"), Table.Column("day"), Table.Column("meal"), Table.Column("recipe"), Table.Column("notes")],
          rows: rows, emptyText: "")))
  }

  /// Today's civil date by the session clock, in the local time zone.
  static func today(_ session: Session) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = calendar.dateComponents([.year, .month, .day], from: session.now())
    return CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)?.description ?? "1970-01-01"
  }

  static func weekdayName(_ date: CivilDate) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    guard let instant = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)) else { return "" }
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    return names[(calendar.component(.weekday, from: instant) - 1) % 7]
  }

  static let planAdd = CommandSpec(
    "mealplan add", summary: "Create a named meal plan, optionally for an ISO week (names may repeat).",
    parameters: [.rest("name", .name)],
    options: [.value("week", "the plan's week: YYYY-Www or a date in it", .week)],
    examples: ["mealplan add \"Holiday week\" --week 2024-W52"]
  ) { invocation, session in
    let plan = try session.library.mealPlans.create(invocation.argument("name"), week: invocation.option("week"))
    return CommandResult(.message("created meal plan '\(plan.displayName)'"), .table(plans([plan])))
  }

  static let planList = CommandSpec("mealplan list", summary: "All meal plans by name.", examples: ["mealplan list"]) { _, session in
    CommandResult(.table(plans(try session.library.mealPlans.all())))
  }

  static func plans(_ plans: [MealPlan]) -> Table {
    Table(
      key: "mealPlans", columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("week")],
      rows: plans.map { [Rows.id($0.id), .string($0.displayName), .text($0.weekIdentifier)] }, emptyText: "no meal plans")
  }
}
