import CommandLanguage
import Foundation
import Model
import Repositories

/// category add, list, show, move, order, rename, delete.
enum CategoryCommands {
  static let add = CommandSpec(
    "category add", summary: "Create a category, or find the one whose name has the same key (\"produce\" is \"Produce\").",
    parameters: [.rest("name", .name, completion: .names(.category), help: "the category's name")],
    options: [
      .value(
        "sort", "its position in lists (default: after the last category)", .integer,
        range: .from(0, to: Double(CategoryRepository.maximumSortOrder)))
    ],
    examples: ["category add Produce", "category add \"Meat & Seafood\" --sort 3"]
  ) { invocation, session in
    let (category, created) = try session.library.categories.getOrCreateReporting(
      invocation.argument("name"), sortOrder: invocation.integer("sort").map(Int64.init))
    let verb = created ? "created" : "found existing"
    return CommandResult(.message("\(verb) category '\(category.displayName)'"), .table(Rows.categories([category])))
  }

  static let list = CommandSpec(
    "category list", summary: "All categories in sort order.", examples: ["category list"]
  ) { _, session in
    CommandResult(.table(Rows.categories(try session.library.categories.all())))
  }

  static let show = CommandSpec(
    "category show", summary: "A category and the ingredients in it.",
    parameters: [.rest("name", .name, completion: .names(.category), help: "a category name or id")],
    examples: ["category show Produce"]
  ) { invocation, session in
    let name = invocation.argument("name")
    guard let category = try session.library.categories.find(name) else {
      throw RepositoryError.notFound(.category, name)
    }
    let members = try session.library.ingredients.all(inCategory: category.id)
    return CommandResult(
      .fields(
        key: "category",
        [
          .init("name", .string(category.displayName)), .init("key", .string(category.normalizedName)),
          .init("id", .string(category.id.shortText)), .init("sortOrder", label: "sort", .int(Int(category.sortOrder))),
        ]),
      .table(Rows.ingredients(members, categoryNames: [category.id: category.displayName])))
  }

  static let move = CommandSpec(
    "category move", summary: "Move a category just before another in the aisle order that lists follow.",
    parameters: [.rest("name", .name, completion: .names(.category), help: "the category to move")],
    options: [
      .value("before", "the category it goes before", placeholder: "CATEGORY", required: true, completion: .names(.category))
    ],
    examples: ["category move Dairy --before Produce"]
  ) { invocation, session in
    let before = invocation.required("before")
    let order = try session.library.categories.move(invocation.argument("name"), before: before)
    return CommandResult(.message("moved '\(invocation.argument("name"))' before '\(before)'"), .table(Rows.categories(order)))
  }

  static let order = CommandSpec(
    "category order", summary: "Set the aisle order at once: these categories first, in this order, then the others as they were.",
    parameters: [
      .words("categories", .name, completion: .names(.category), help: "category names in store order (quote names with spaces)")
    ],
    examples: ["category order Produce Bakery \"Meat & Seafood\" Dairy"]
  ) { invocation, session in
    let order = try session.library.categories.setOrder(invocation.argumentList("categories"))
    return CommandResult(
      .message("set the order of \(order.count) categor\(order.count == 1 ? "y" : "ies")"), .table(Rows.categories(order)))
  }

  static let rename = CommandSpec(
    "category rename", summary: "Rename a category; refused when another category already has the new name's key.",
    parameters: [
      .rest("old", .name, completion: .names(.category), help: "the current name"), .keyword("to"),
      .rest("new", .name, help: "the new name"),
    ],
    examples: ["category rename Produce to \"Fruit & Vegetables\""]
  ) { invocation, session in
    let category = try session.library.categories.rename(invocation.argument("old"), to: invocation.argument("new"))
    return CommandResult(.message("renamed category to '\(category.displayName)'"), .table(Rows.categories([category])))
  }

  static let delete = CommandSpec(
    "category delete", summary: "Delete a category; its ingredients stay, without a category.",
    parameters: [.rest("name", .name, completion: .names(.category), help: "a category name or id")],
    examples: ["category delete Household"]
  ) { invocation, session in
    let category = try session.library.categories.delete(invocation.argument("name"))
    return CommandResult(.message("deleted category '\(category.displayName)'"), .table(Rows.categories([category])))
  }
}
