import CommandLanguage
import Foundation
import Model
import Repositories

/// pantry add, set, remove, list: the household's on-hand ingredients and amounts (synced).
enum PantryCommands {
  static let add = CommandSpec(
    "pantry add", summary: "Mark ingredients as on hand (created when missing); list add-recipe then skips them.",
    parameters: [
      .words("names", .name, completion: .names(.ingredientTemplate), help: "one or more ingredients (quote names with spaces)")
    ],
    examples: ["pantry add rice \"soy sauce\" eggs"]
  ) { invocation, session in
    let library = session.library
    let templates = try library.transaction { tx in try invocation.argumentList("names").map { try tx.pantry.add($0) } }
    return CommandResult(
      .message("on hand: \(templates.map { "'\($0.displayName)'" }.joined(separator: ", "))"),
      .table(Rows.ingredients(templates, categoryNames: try Rows.categoryNames(library, for: templates))))
  }

  static let set = CommandSpec(
    "pantry set",
    summary:
      "Set how much of an ingredient is on hand (in the pantry from then on, created when missing); lists show what recipes need beyond it.",
    parameters: [
      .word("name", .name, completion: .names(.ingredientTemplate), help: "the ingredient (quote a name with spaces)"),
      .rest("amount", help: "a number above 0 and at most 100,000, with an optional unit: 500 g, 6, 2 cups"),
    ],
    details: [
      "A list subtracts it from what its items need across units of one dimension, volume against mass through the ingredient's density, and counts of one unit (a dozen is 12); an amount it cannot compare is shown beside the line, which lists everything.",
      "`pantry add` keeps an amount already set; `pantry remove` clears it; `recipe cooked NAME --use-pantry` lowers it.",
    ],
    examples: ["pantry set rice 500 g", "pantry set eggs 6", "pantry set \"soy sauce\" 250 ml"]
  ) { invocation, session in
    let library = session.library
    let template = try library.pantry.set(invocation.argument("name"), amount: invocation.argument("amount"))
    return CommandResult(
      .message("on hand: \(template.onHandAmount ?? "some") '\(template.displayName)'"),
      .table(pantry([template], categories: try Rows.categoryNames(library, for: [template]))))
  }

  static let remove = CommandSpec(
    "pantry remove", summary: "Take ingredients out of the pantry (used up); list add-recipe adds them again.",
    parameters: [.words("names", .name, completion: .names(.ingredientTemplate), help: "one or more ingredients in the pantry")],
    examples: ["pantry remove eggs"]
  ) { invocation, session in
    let templates = try session.library.transaction { tx in try invocation.argumentList("names").map { try tx.pantry.remove($0) } }
    return CommandResult(.message("no longer on hand: \(templates.map { "'\($0.displayName)'" }.joined(separator: ", "))"))
  }

  static let list = CommandSpec(
    "pantry list", summary: "The ingredients on hand, by name.", examples: ["pantry list"]
  ) { _, session in
    let templates = try session.library.pantry.all()
    return CommandResult(.table(pantry(templates, categories: try Rows.categoryNames(session.library, for: templates))))
  }

  /// Ingredients on hand with their amounts ("some" when none was given).
  static func pantry(_ templates: [IngredientTemplate], categories: [UUID: String]) -> Table {
    Table(
      key: "pantry",
      columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("amount"), Table.Column("category")],
      rows: templates.map {
        [Rows.id($0.id), .string($0.displayName), .text($0.onHandAmount), .text($0.category.flatMap { categories[$0] })]
      },
      emptyText: "the pantry is empty")
  }
}
