import CommandLanguage
import Foundation
import Model
import Repositories

/// store add, list, show, order, rename, delete: the shops a household buys from, each
/// with its own aisle order (synced).
enum StoreCommands {
  static let add = CommandSpec(
    "store add", summary: "Add a store, or find the one whose name has the same key (\"trader joe's\" is \"Trader Joe's\").",
    parameters: [.rest("name", .name, completion: .names(.groceryStore), help: "the store's name")],
    details: ["Two devices that add one store offline add the same store: its id comes from its name."],
    examples: ["store add \"Trader Joe's\"", "store add Costco"]
  ) { invocation, session in
    let (store, created) = try session.library.stores.getOrCreate(invocation.argument("name"))
    let message =
      created
      ? "created store '\(store.displayName)'" : "found existing store '\(store.displayName)' (id \(store.id.shortText)); nothing created"
    return CommandResult(
      .message(message), .data(key: "created", .bool(created)), .table(try stores([store], session: session)))
  }

  static let list = CommandSpec(
    "store list", summary: "Every store by name, with the categories it puts first.", examples: ["store list"]
  ) { _, session in
    CommandResult(
      .table(try stores(try session.library.stores.all(), session: session)),
      .message("a store with no ORDER, and a list without a store, follow the default order (category list)"))
  }

  static let show = CommandSpec(
    "store show", summary: "A store's whole aisle order: the categories it names, then the others in the default order.",
    parameters: [.rest("name", .name, completion: .names(.groceryStore), help: "a store name or id")],
    examples: ["store show \"Trader Joe's\""]
  ) { invocation, session in
    let name = invocation.argument("name")
    guard let store = try session.library.stores.find(name) else { throw RepositoryError.notFound(.groceryStore, name) }
    let order = try session.library.stores.aisleOrder(store.id.uuidString)
    let named = Set(store.aisleOrder)
    return CommandResult(
      .fields(
        key: "store",
        [.init("name", .string(store.displayName)), .init("key", .string(store.normalizedName)), .init("id", Rows.id(store.id))]),
      .table(
        Table(
          key: "aisles",
          columns: [
            Table.Column("id", jsonOnly: true), Table.Column("position", "#", alignRight: true), Table.Column("category"),
            Table.Column("fromStore", "ORDER"),
          ],
          rows: order.enumerated().map { index, category in
            [
              Rows.id(category.id), .int(index + 1), .string(category.displayName),
              .string(named.contains(category.id) ? "store" : "default"),
            ]
          },
          emptyText: "no categories")))
  }

  static let order = CommandSpec(
    "store order",
    summary:
      "Set a store's aisle order: these categories first, in this order, then the others in the default order; no categories resets it.",
    parameters: [
      .word("store", .name, completion: .names(.groceryStore), help: "the store (quote a name with spaces)"),
      .words(
        "categories", .name, optional: true, completion: .names(.category),
        help: "category names in the store's walking order (quote names with spaces)"),
    ],
    details: [
      "The order is one field of the store: two devices that order one store differently converge on the later order.",
      "The default order (lists without a store) is the categories' own: category move, category order.",
    ],
    examples: ["store order \"Trader Joe's\" Produce Bakery Dairy", "store order Costco"]
  ) { invocation, session in
    let store = try session.library.stores.setOrder(of: invocation.argument("store"), invocation.argumentList("categories"))
    let count = store.aisleOrder.count
    let message =
      count == 0
      ? "'\(store.displayName)' follows the default order"
      : "set the order of \(count) categor\(count == 1 ? "y" : "ies") at '\(store.displayName)'; the others follow in the default order"
    return CommandResult(.message(message), .table(try stores([store], session: session)))
  }

  static let rename = CommandSpec(
    "store rename", summary: "Rename a store; refused when another store already has the new name's key.",
    parameters: [
      .rest("old", .name, completion: .names(.groceryStore), help: "the current name"), .keyword("to"),
      .rest("new", .name, help: "the new name"),
    ],
    examples: ["store rename Costco to \"Costco Wholesale\""]
  ) { invocation, session in
    let store = try session.library.stores.rename(invocation.argument("old"), to: invocation.argument("new"))
    return CommandResult(.message("renamed store to '\(store.displayName)'"), .table(try stores([store], session: session)))
  }

  static let delete = CommandSpec(
    "store delete", summary: "Delete a store; lists shopped there keep their items and follow the default order.",
    parameters: [.rest("name", .name, completion: .names(.groceryStore), help: "a store name or id")],
    examples: ["store delete Costco"]
  ) { invocation, session in
    let store = try session.library.stores.delete(invocation.argument("name"))
    return CommandResult(.message("deleted store '\(store.displayName)'"))
  }

  /// Stores with the names of the categories each puts first.
  static func stores(_ stores: [GroceryStore], session: Session) throws -> Table {
    let categories = Dictionary(
      try session.library.categories.all().map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
    return Table(
      key: "stores",
      columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("key"), Table.Column("order")],
      rows: stores.map { store in
        let names = store.aisleOrder.compactMap { categories[$0] }
        return [
          Rows.id(store.id), .string(store.displayName), .string(store.normalizedName),
          .strings(names),
        ]
      },
      emptyText: "no stores")
  }
}
