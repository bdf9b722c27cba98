import CommandLanguage
import Foundation
import Model
import Repositories

/// list add-plan and list store: the week's meal plan onto a list, and the store a list
/// is shopped at.
enum ListPlanCommands {
  static let addPlan = CommandSpec(
    "list add-plan",
    summary:
      "Add the recipe of every meal planned in a week, each scaled to its meal's servings, skipping staples and pantry ingredients without an amount (--all adds them); running it again brings the list back in line with the plan.",
    parameters: [.rest("list", completion: .names(.weeklyList), help: "a list name or id")],
    options: [
      .value("week", "the planned week: YYYY-Www or a date in it", .week, required: true),
      .flag("all", "also add staples and what is in the pantry without an amount"),
    ],
    details: [
      "Each item remembers the meal and recipe line it came from (its id is made from the list, the meal, the recipe and the line): a line already added, or removed from the list since, is not added again, and two devices that add one week offline add the same items.",
      "A meal's servings scale its recipe from the recipe's yield. Run again, it follows the plan: an item whose meal's servings changed takes the new amount; the items of a meal removed or planned with another recipe since leave the list, and that recipe's lines are added.",
      "An item that is checked, or whose amount is not the one add-plan gave it, is never changed or removed; items added by hand are not add-plan's.",
    ],
    examples: ["list add-plan Groceries --week 2024-W50", "list add-plan Groceries --week 2024-12-13 --all"]
  ) { invocation, session in
    let week = invocation.required("week")
    let list = invocation.argument("list")
    let addition = try session.library.lists.addPlan(week: week, to: list, includeOnHand: invocation.flag("all"))
    let count = addition.added.count, meals = addition.meals.count
    var parts: [CommandResult.Part] = [
      .message(
        "added \(count) item\(count == 1 ? "" : "s") from \(meals) planned meal\(meals == 1 ? "" : "s") of \(try Identity.week(of: week)) to '\(list)'"
      ),
      .data(key: "meals", .strings(addition.meals.map(\.slotKey))), .data(key: "added", .int(count)),
      .data(key: "skipped", .strings(addition.skipped)), .data(key: "alreadyOnList", .int(addition.alreadyOnList)),
      .data(key: "unscaled", .strings(addition.unscaled)),
      .data(key: "rescaled", .strings(addition.rescaled.map(Self.described))),
      .data(key: "removed", .strings(addition.removed.map(Self.described))),
      .data(key: "keptAsChanged", .strings(addition.keptAsChanged.map(Self.described))),
    ]
    if !addition.rescaled.isEmpty {
      parts.append(.message("amounts now following the planned servings: \(addition.rescaled.map(Self.described).joined(separator: ", "))"))
    }
    if !addition.removed.isEmpty {
      parts.append(
        .message("taken off, no longer in the plan: \(addition.removed.map(Self.described).joined(separator: ", "))"))
    }
    if !addition.keptAsChanged.isEmpty {
      parts.append(
        .message(
          "left as they are, checked or changed by hand: \(addition.keptAsChanged.map(Self.described).joined(separator: ", "))"))
    }
    if !addition.skipped.isEmpty {
      parts.append(.message("skipped, on hand or staples: \(addition.skipped.joined(separator: ", ")) (--all adds them)"))
    }
    if addition.alreadyOnList > 0 {
      let lines = addition.alreadyOnList
      parts.append(
        .message("\(lines) line\(lines == 1 ? " was" : "s were") added by an earlier add-plan (or removed since): not added again"))
    }
    if !addition.unscaled.isEmpty {
      parts.append(.message("not scaled, no number in the yield: \(addition.unscaled.joined(separator: ", "))"))
    }
    parts += ListCommands.pantryCovered(addition.covered)
    return CommandResult(parts: parts)
  }

  /// "eggs 6", or the name alone for an item without an amount.
  static func described(_ item: GroceryListItem) -> String {
    item.quantity.map { "\(item.displayName) \($0)" } ?? item.displayName
  }

  static let store = CommandSpec(
    "list store",
    summary: "Set the store a list is shopped at (list show then follows its aisle order), or --clear it.",
    parameters: [
      .word("list", completion: .names(.weeklyList), help: "a list name or id (quote a name with spaces)"),
      .rest("store", .name, optional: true, completion: .names(.groceryStore), help: "a store name or id"),
    ],
    options: [.flag("clear", "shop the list in the default order again")],
    oneOf: [OneOf("store", "--clear", required: true)],
    details: ["The list's store is a field of the list and syncs like one; `list show --store` overrides it for one command."],
    examples: ["list store Groceries \"Trader Joe's\"", "list store Groceries --clear"]
  ) { invocation, session in
    let storeName = invocation.optionalArgument("store")
    let (list, store) = try session.library.lists.setStore(of: invocation.argument("list"), to: storeName)
    let message =
      store.map { "list '\(list.displayName)' is shopped at '\($0.displayName)'" }
      ?? "list '\(list.displayName)' follows the default order"
    return CommandResult(.message(message), .data(key: "store", .text(store?.displayName)), .table(ListCommands.lists([list])))
  }
}
