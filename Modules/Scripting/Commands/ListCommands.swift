import CommandLanguage
import Foundation
import Model
import Repositories

/// Weekly grocery lists and their items.
enum ListCommands {
  static let new = CommandSpec(
    "list new",
    summary:
      "Create a weekly list for an ISO week (this week when none is given), or find the week's list whose name has the same key (\"weekly\" is \"Weekly\").",
    parameters: [.rest("name", .name, completion: .names(.weeklyList), help: "the list's name")],
    options: [.value("week", "YYYY-Www or a date in the week", .week)],
    details: [
      "A week has one list per name: \"Costco\" and \"Farmers market\" can both be lists of 2024-W50, two \"Weekly\" lists cannot.",
      "Lists made on several devices for one week and name are one list after sync, with the items of each.",
    ],
    examples: ["list new Groceries --week 2024-W50", "list new Costco"]
  ) { invocation, session in
    let (list, created) = try session.library.lists.getOrCreate(invocation.argument("name"), week: invocation.option("week"))
    let message =
      created
      ? "created list '\(list.displayName)' for \(list.weekIdentifier)"
      : "found existing list '\(list.displayName)' for \(list.weekIdentifier) (id \(list.id.shortText)); nothing created"
    return CommandResult(.message(message), .data(key: "created", .bool(created)), .table(lists([list])))
  }

  static let all = CommandSpec(
    "list all", summary: "All weekly lists, newest week first; --week keeps one week's.",
    options: [.value("week", "only this week", .week)],
    examples: ["list all", "list all --week 2024-W50"]
  ) { invocation, session in
    CommandResult(.table(lists(try session.library.lists.all(week: invocation.option("week")))))
  }

  static func lists(_ lists: [WeeklyList]) -> Table {
    Table(
      key: "lists",
      columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("week"), Table.Column("completed", "DONE")],
      rows: lists.map { [Rows.id($0.id), .string($0.displayName), .string($0.weekIdentifier), .bool($0.isCompleted)] },
      emptyText: "no lists")
  }

  static let unitWords = UnitPreference.allCases.map(\.rawValue)

  static let show = CommandSpec(
    "list show",
    summary:
      "A list by aisle: one line per ingredient with its amounts summed less what the pantry holds, under its category in its store's order (the categories' own by default), uncategorized last; done and covered lines are hidden unless --all.",
    parameters: [.rest("list", completion: .names(.weeklyList), help: "a list name or id")],
    options: [
      .flag("all", "also show lines whose items are all done or that the pantry covers, after the open ones of their aisle"),
      .value(
        "store", "follow this store's aisle order (default: the list's store, else the categories' order)", placeholder: "STORE",
        completion: .names(.groceryStore)),
      .value(
        "units", "show amounts in this system (default: the session's 'settings units')", .choice(unitWords), completion: .words(unitWords)),
    ],
    examples: ["list show Groceries", "list show Groceries --all --units metric", "list show Groceries --store \"Trader Joe's\""]
  ) { invocation, session in
    let name = invocation.argument("list")
    guard let list = try session.library.lists.find(name) else { throw RepositoryError.notFound(.weeklyList, name) }
    let units = invocation.option("units").flatMap(UnitPreference.init(rawValue:)) ?? session.units
    let shopping = try session.library.lists.shoppingList(
      list.id.uuidString, units: units, includeDone: invocation.flag("all"), store: invocation.option("store"))
    return CommandResult(parts: parts(of: shopping))
  }

  /// What `list show` (and `watch list`) prints of a list by aisle.
  static func parts(of shopping: ShoppingList) -> [CommandResult.Part] {
    let list = shopping.list
    var rows: [[JSONValue]] = []
    for aisle in shopping.aisles {
      let aisleName = aisle.category?.displayName ?? "Uncategorized"
      for (index, line) in aisle.lines.enumerated() {
        rows.append([
          .string(index == 0 ? aisleName : ""), .text(aisle.category?.displayName), .string(line.name),
          .string(line.pantry.map { line.amountText.isEmpty ? "(\($0.note))" : "\(line.amountText) (\($0.note))" } ?? line.amountText),
          .string(line.amountText),
          .array(line.amounts.map(amountJSON)), .strings(line.unreadAmounts), .int(line.itemsWithoutAmount), .int(line.items.count),
          .bool(line.isCompleted), line.pantry.map(pantryJSON) ?? .null,
        ])
      }
    }
    let hidden = shopping.hiddenDoneLines
    let covered = shopping.coveredLines
    let storeText = shopping.store.map { " at \($0.displayName)" } ?? ""
    var parts: [CommandResult.Part] = [
      .message("\(list.displayName) (\(list.weekIdentifier))\(storeText)\(list.isCompleted ? ", completed" : "")"),
      .data(
        key: "list",
        [
          "id": Rows.id(list.id), "name": .string(list.displayName), "week": .string(list.weekIdentifier),
          "completed": .bool(list.isCompleted), "store": .text(shopping.store?.displayName),
        ]),
      .table(
        Table(
          key: "items",
          columns: [
            Table.Column("aisleHeading", "AISLE", tableOnly: true), Table.Column("aisle", jsonOnly: true), Table.Column("name", "ITEM"),
            Table.Column("amountShown", "AMOUNT", tableOnly: true), Table.Column("amount", jsonOnly: true),
            Table.Column("amounts", jsonOnly: true), Table.Column("unreadAmounts", jsonOnly: true),
            Table.Column("itemsWithoutAmount", jsonOnly: true), Table.Column("itemCount", jsonOnly: true),
            Table.Column("completed", "DONE"), Table.Column("pantry", jsonOnly: true),
          ],
          rows: rows, emptyText: hidden + covered > 0 ? "nothing left to buy" : "no items")),
    ]
    if hidden > 0 { parts.append(.message("\(hidden) done line\(hidden == 1 ? "" : "s") hidden; --all shows them")) }
    if covered > 0 {
      parts.append(.message("\(covered) line\(covered == 1 ? "" : "s") covered by the pantry hidden; --all shows them"))
    }
    return parts
  }

  /// What the pantry did to a line, for JSON.
  static func pantryJSON(_ pantry: ShoppingList.Pantry) -> JSONValue {
    [
      "onHand": .string(pantry.onHand), "needed": .string(pantry.needed), "comparable": .bool(pantry.isComparable),
      "covered": .bool(pantry.isCovered),
    ]
  }

  /// One summed amount for JSON: the exact fraction in the shown unit, its nearest double, the text.
  static func amountJSON(_ amount: ShoppingList.Amount) -> JSONValue {
    [
      "exact": .string(amount.exact), "exactUpperBound": .text(amount.exactUpperBound), "value": .double(amount.value),
      "unit": .text(amount.unit), "packageSize": .text(amount.packageSize), "text": .string(amount.text),
    ]
  }

  static let items = CommandSpec(
    "list items", summary: "A list's items one by one, as added (not consolidated).",
    parameters: [.rest("list", completion: .names(.weeklyList))],
    examples: ["list items Groceries"]
  ) { invocation, session in
    let items = try session.library.lists.items(of: invocation.argument("list"))
    return CommandResult(
      .table(
        Table(
          key: "items",
          columns: [
            Table.Column("id", jsonOnly: true), Table.Column("name", "ITEM"), Table.Column("quantity"), Table.Column("source"),
            Table.Column("completed", "DONE"),
          ],
          rows: items.map {
            [Rows.id($0.id), .string($0.displayName), .text($0.quantity), .string($0.source.rawValue), .bool($0.isCompleted)]
          },
          emptyText: "no items")))
  }

  static let add = CommandSpec(
    "list add",
    summary:
      "Add an item to a list (linked to the ingredient of that name when there is one); \"2 eggs\" is read as amount and ingredient.",
    parameters: [.rest("item", completion: .names(.ingredientTemplate)), .keyword("to"), .rest("list", completion: .names(.weeklyList))],
    options: [.value("quantity", "how much: \"2 l\", \"6\"; the item is then taken as written", placeholder: "QTY")],
    examples: [
      "list add 2 eggs to Groceries", "list add milk --quantity \"1 l\" to Groceries", "list add \"7 Up\" --quantity 2 to Groceries",
    ]
  ) { invocation, session in
    let item = try session.library.lists.addItem(
      invocation.argument("item"), quantity: invocation.option("quantity"), to: invocation.argument("list"))
    return CommandResult(
      .message("added '\(item.displayName)'\(item.quantity.map { " (\($0))" } ?? "") to '\(invocation.argument("list"))'"))
  }

  static let addRecipe = CommandSpec(
    "list add-recipe",
    summary:
      "Add one item per ingredient line of a recipe, skipping staples and pantry ingredients without an amount (--all adds them); --servings (from the recipe's yield) or --scale multiplies the quantities.",
    parameters: [.rest("recipe", completion: .names(.recipe)), .keyword("to"), .rest("list", completion: .names(.weeklyList))],
    options: RecipeCommands.scaleOptions + [.flag("all", "also add staples and what is in the pantry")],
    oneOf: [RecipeCommands.scaleChoice],
    examples: ["list add-recipe Egg Fried Rice to Groceries", "list add-recipe Egg Fried Rice --servings 8 --all to Groceries"]
  ) { invocation, session in
    let addition = try session.library.lists.addRecipe(
      invocation.argument("recipe"), to: invocation.argument("list"), scaledBy: RecipeCommands.scale(invocation),
      includeOnHand: invocation.flag("all"))
    let count = addition.added.count
    var parts: [CommandResult.Part] = [
      .message("added \(count) item\(count == 1 ? "" : "s") from '\(invocation.argument("recipe"))' to '\(invocation.argument("list"))'"),
      .data(key: "skipped", .strings(addition.skipped)),
    ]
    if !addition.skipped.isEmpty {
      parts.append(.message("skipped, on hand or staples: \(addition.skipped.joined(separator: ", ")) (--all adds them)"))
    }
    parts += pantryCovered(addition.covered)
    return CommandResult(parts: parts)
  }

  /// "covered by the pantry for now: Rice" and its JSON.
  static func pantryCovered(_ names: [String]) -> [CommandResult.Part] {
    var parts: [CommandResult.Part] = [.data(key: "covered", .strings(names))]
    if !names.isEmpty {
      parts.append(.message("covered by the pantry's amounts for now (list show hides them): \(names.joined(separator: ", "))"))
    }
    return parts
  }

  static let check = CommandSpec(
    "list check", summary: "Mark every item for an ingredient on a list as done.",
    parameters: [.rest("item", completion: .names(.ingredientTemplate)), .keyword("on"), .rest("list", completion: .names(.weeklyList))],
    examples: ["list check milk on Groceries"]
  ) { invocation, session in
    let items = try session.library.lists.check(invocation.argument("item"), on: invocation.argument("list"), done: true)
    return CommandResult(.message("checked \(items.count) item\(items.count == 1 ? "" : "s") '\(invocation.argument("item"))'"))
  }

  static let uncheck = CommandSpec(
    "list uncheck", summary: "Mark every item for an ingredient on a list as not done.",
    parameters: [.rest("item", completion: .names(.ingredientTemplate)), .keyword("on"), .rest("list", completion: .names(.weeklyList))],
    examples: ["list uncheck milk on Groceries"]
  ) { invocation, session in
    let items = try session.library.lists.check(invocation.argument("item"), on: invocation.argument("list"), done: false)
    return CommandResult(.message("unchecked \(items.count) item\(items.count == 1 ? "" : "s") '\(invocation.argument("item"))'"))
  }

  static let remove = CommandSpec(
    "list remove", summary: "Remove every item for an ingredient from a list.",
    parameters: [.rest("item", completion: .names(.ingredientTemplate)), .keyword("from"), .rest("list", completion: .names(.weeklyList))],
    examples: ["list remove milk from Groceries"]
  ) { invocation, session in
    let items = try session.library.lists.removeItem(invocation.argument("item"), from: invocation.argument("list"))
    return CommandResult(.message("removed \(items.count) item\(items.count == 1 ? "" : "s") '\(invocation.argument("item"))'"))
  }

  static let complete = CommandSpec(
    "list complete", summary: "Mark a whole list completed.",
    parameters: [.rest("list", completion: .names(.weeklyList))],
    examples: ["list complete Groceries"]
  ) { invocation, session in
    let list = try session.library.lists.complete(invocation.argument("list"), done: true)
    return CommandResult(.message("completed list '\(list.displayName)'"), .table(lists([list])))
  }

  static let reopen = CommandSpec(
    "list reopen", summary: "Mark a completed list open again.",
    parameters: [.rest("list", completion: .names(.weeklyList))],
    examples: ["list reopen Groceries"]
  ) { invocation, session in
    let list = try session.library.lists.complete(invocation.argument("list"), done: false)
    return CommandResult(.message("reopened list '\(list.displayName)'"), .table(lists([list])))
  }

  static let rename = CommandSpec(
    "list rename", summary: "Rename a list; a name another list of its week has is refused (lists of other weeks may share it).",
    parameters: [.rest("old", .name, completion: .names(.weeklyList)), .keyword("to"), .rest("new", .name)],
    examples: ["list rename Groceries to \"Big shop\""]
  ) { invocation, session in
    let list = try session.library.lists.rename(invocation.argument("old"), to: invocation.argument("new"))
    return CommandResult(.message("renamed list to '\(list.displayName)'"), .table(lists([list])))
  }

  static let delete = CommandSpec(
    "list delete", summary: "Delete a list with its items.",
    parameters: [.rest("list", completion: .names(.weeklyList))],
    examples: ["list delete Groceries"]
  ) { invocation, session in
    let list = try session.library.lists.delete(invocation.argument("list"))
    return CommandResult(.message("deleted list '\(list.displayName)'"))
  }
}
