import CommandLanguage
import Model
import Repositories

/// mealplan add, list: named meal plans, each optionally for an ISO week.
enum MealPlanCommands {
  static let add = CommandSpec(
    "mealplan add", summary: "Create a named meal plan, optionally for an ISO week (names may repeat).",
    parameters: [.rest("name", .name)],
    options: [.value("week", "the plan's week: YYYY-Www or a date in it", .week)],
    examples: ["mealplan add \"Holiday week\" --week 2024-W52"]
  ) { invocation, session in
    let plan = try session.library.mealPlans.create(invocation.argument("name"), week: invocation.option("week"))
    return CommandResult(.message("created meal plan '\(plan.displayName)'"), .table(plans([plan])))
  }

  static let list = CommandSpec("mealplan list", summary: "All meal plans by name.", examples: ["mealplan list"]) { _, session in
    CommandResult(.table(plans(try session.library.mealPlans.all())))
  }

  static func plans(_ plans: [MealPlan]) -> Table {
    Table(
      key: "mealPlans", columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("week")],
      rows: plans.map { [Rows.id($0.id), .string($0.displayName), .text($0.weekIdentifier)] }, emptyText: "no meal plans")
  }
}
