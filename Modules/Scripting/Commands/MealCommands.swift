import CommandLanguage
import Foundation
import Model
import RecipeExchange
import Repositories

/// meal plan, show, clear, week, export: one meal per date and meal type.
enum MealCommands {
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

}

/// meal export: the meal plan as an iCalendar file (Docs/COMMANDS.md, "Meal plan as a calendar").
extension MealCommands {
  /// The longest span one export covers, in days (about two years of meals).
  static let maximumExportDays = 731

  static let export = CommandSpec(
    "meal export", summary: "Write the planned meals as an iCalendar (.ics) file that calendar apps import or subscribe to.",
    options: [
      .value("ics", "the calendar file to write", placeholder: "FILE", required: true),
      .value("from", "the first date to export (default: the first planned meal)", .date),
      .value("to", "the last date to export, included (default: the last planned meal)", .date),
      .flag("timed", "timed events (breakfast 08:00, lunch 12:30, snack 16:00, dinner 19:00) instead of all-day ones"),
    ],
    details: [
      "One event per planned meal: its summary is the meal type and recipe, its description the recipe, servings and notes.",
      "Each event's UID comes from the meal's slot (2024-12-13-dinner@meal-plan.forager), so importing a later",
      "export again updates the events instead of adding copies. Timed events last 30 (breakfast, snack),",
      "45 (lunch) or 60 (dinner) minutes, at those times wherever the calendar is (floating times).",
      "--from must not be after --to, and one export covers at most \(maximumExportDays) days.",
      "When no meal is planned in the range, nothing is written and the command fails.",
    ],
    examples: [
      "meal export --ics meals.ics", "meal export --ics december.ics --from 2024-12-01 --to 2024-12-31",
      "meal export --ics week.ics --from 2024-12-09 --to 2024-12-15 --timed",
    ]
  ) { invocation, session in
    let path = invocation.required("ics")
    let from = invocation.option("from").flatMap { CivilDate(iso: $0) }
    let to = invocation.option("to").flatMap { CivilDate(iso: $0) }
    if let from, let to, from > to { throw invocation.failure("--from \(from) is after --to \(to)", argument: "--from") }
    for (name, date) in [("from", from), ("to", to)] {
      if let date, !(1...9999).contains(date.year) {
        throw invocation.failure("--\(name) \(date): the year must be 1 to 9999", argument: "--\(name)")
      }
    }
    let slots = try session.library.meals.slots(from: from, through: to)
    if let first = from ?? slots.first?.meal.date, let last = to ?? slots.last?.meal.date {
      let days = daysBetween(first, last) + 1
      if days > maximumExportDays {
        throw invocation.failure(
          "\(first) to \(last) is \(days) days; one export covers at most \(maximumExportDays) (give --from and --to)",
          argument: from == nil ? "--from" : "--to")
      }
      if !(1...9999).contains(first.year) || !(1...9999).contains(last.year) {
        throw invocation.failure("a planned meal's year is outside 1 to 9999; give --from and --to", argument: "--from")
      }
    }
    // RFC 5545 wants at least one component in a calendar: an empty export is refused.
    if slots.isEmpty {
      let range = [from.map { "from \($0)" }, to.map { "through \($0)" }].compactMap { $0 }.joined(separator: " ")
      throw invocation.failure("no meals are planned\(range.isEmpty ? "" : " " + range); nothing was written", argument: "--ics")
    }
    let meals = slots.map { slot in
      MealCalendar.Meal(
        date: slot.meal.date, mealType: slot.meal.mealType, recipes: slot.recipe.map { [$0.displayName] } ?? [],
        servings: slot.meal.servings, notes: slot.meal.notes)
    }
    let timing: MealCalendar.Timing = invocation.flag("timed") ? .timed : .allDay
    let text = MealCalendar.document(meals, stamp: session.now(), timing: timing)
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw invocation.failure("cannot write \(path): \(error.localizedDescription)", argument: "--ics")
    }
    let range = [from ?? slots.first?.meal.date, to ?? slots.last?.meal.date].map { $0?.description }
    let span = range.compactMap { $0 }.isEmpty ? "" : " (\(range[0] ?? "…") to \(range[1] ?? "…"))"
    let events = "\(meals.count) event\(meals.count == 1 ? "" : "s")"
    return CommandResult(
      .message("wrote \(events) to \(path)\(span), \(timing == .timed ? "timed" : "all-day")"),
      .data(
        key: "calendar",
        [
          "path": .string(path), "events": .int(meals.count), "from": .text(range[0]), "to": .text(range[1]),
          "timing": .string(timing == .timed ? "timed" : "all-day"),
        ]))
  }

  /// Whole days from `start` to `end`.
  static func daysBetween(_ start: CivilDate, _ end: CivilDate) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    guard let a = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day)),
      let b = calendar.date(from: DateComponents(year: end.year, month: end.month, day: end.day))
    else { return 0 }
    return calendar.dateComponents([.day], from: a, to: b).day ?? 0
  }
}
