import Foundation
import Model
import Repositories

/// Weekly grocery lists and their items.
enum ListCommands {
  static let group = CommandGroup(
    "list", summary: "Weekly grocery lists (items for one ingredient are shown as one line)",
    commands: [new, all, show, items, add, addRecipe, check, uncheck, remove, complete, reopen, rename, delete])

  static let new = CommandSpec(
    "list new", summary: "Create a weekly list for an ISO week (this week when none is given); names may repeat.",
    parameters: [.rest("name", .name, help: "the list's name")],
    options: [.value("week", "YYYY-Www or a date in the week", .week)],
    examples: ["list new Groceries --week 2024-W50"]
  ) { invocation, session in
    let list = try session.library.lists.create(invocation.argument("name"), week: invocation.option("week"))
    return CommandResult(.message("created list '\(list.displayName)' for \(list.weekIdentifier)"), .table(lists([list])))
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

  static let show = CommandSpec(
    "list show", summary: "A list's items consolidated: lines for the same ingredient are one, with their count and quantities.",
    parameters: [.rest("list", completion: .names(.weeklyList), help: "a list name or id")],
    examples: ["list show Groceries"]
  ) { invocation, session in
    let name = invocation.argument("list")
    guard let list = try session.library.lists.find(name) else { throw RepositoryError.notFound(.weeklyList, name) }
    let consolidated = try session.library.lists.consolidated(list.id.uuidString)
    let rows: [[JSONValue]] = consolidated.map {
      [.string($0.name), .int($0.count), .strings($0.quantities), .bool($0.isCompleted)]
    }
    return CommandResult(
      .message("\(list.displayName) (\(list.weekIdentifier))\(list.isCompleted ? ", completed" : "")"),
      .data(key: "list", ["id": Rows.id(list.id), "name": .string(list.displayName), "week": .string(list.weekIdentifier), "completed": .bool(list.isCompleted)]),
      .table(Table(
        key: "items",
        columns: [Table.Column("name", "ITEM"), Table.Column("count", "×", alignRight: true), Table.Column("quantities", "QUANTITIES"), Table.Column("completed", "DONE")],
        rows: rows, emptyText: "no items")))
  }

  static let items = CommandSpec(
    "list items", summary: "A list's items one by one, as added (not consolidated).",
    parameters: [.rest("list", completion: .names(.weeklyList))],
    examples: ["list items Groceries"]
  ) { invocation, session in
    let items = try session.library.lists.items(of: invocation.argument("list"))
    return CommandResult(.table(Table(
      key: "items",
      columns: [
        Table.Column("id", jsonOnly: true), Table.Column("name", "ITEM"), Table.Column("quantity"), Table.Column("source"),
        Table.Column("completed", "DONE"),
      ],
      rows: items.map { [Rows.id($0.id), .string($0.displayName), .text($0.quantity), .string($0.source.rawValue), .bool($0.isCompleted)] },
      emptyText: "no items")))
  }

  static let add = CommandSpec(
    "list add", summary: "Add an item to a list (linked to the ingredient of that name when there is one); \"2 eggs\" is read as amount and ingredient.",
    parameters: [.rest("item", completion: .names(.ingredientTemplate)), .keyword("to"), .rest("list", completion: .names(.weeklyList))],
    options: [.value("quantity", "how much: \"2 l\", \"6\"; the item is then taken as written", placeholder: "QTY")],
    examples: ["list add 2 eggs to Groceries", "list add milk --quantity \"1 l\" to Groceries", "list add \"7 Up\" --quantity 2 to Groceries"]
  ) { invocation, session in
    let item = try session.library.lists.addItem(invocation.argument("item"), quantity: invocation.option("quantity"), to: invocation.argument("list"))
    return CommandResult(.message("added '\(item.displayName)'\(item.quantity.map { " (\($0))" } ?? "") to '\(invocation.argument("list"))'"))
  }

  static let addRecipe = CommandSpec(
    "list add-recipe", summary: "Add one item per ingredient line of a recipe.",
    parameters: [.rest("recipe", completion: .names(.recipe)), .keyword("to"), .rest("list", completion: .names(.weeklyList))],
    examples: ["list add-recipe Egg Fried Rice to Groceries"]
  ) { invocation, session in
    let items = try session.library.lists.addRecipe(invocation.argument("recipe"), to: invocation.argument("list"))
    return CommandResult(.message("added \(items.count) item\(items.count == 1 ? "" : "s") from '\(invocation.argument("recipe"))' to '\(invocation.argument("list"))'"))
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
    "list rename", summary: "Rename a list (lists may share a name).",
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
