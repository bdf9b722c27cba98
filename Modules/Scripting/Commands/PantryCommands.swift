import Foundation
import Model
import Repositories

/// pantry add, remove, list: the household's on-hand ingredients (synced).
enum PantryCommands {
  static let group = CommandGroup(
    "pantry", summary: "What is on hand (synced): list add-recipe skips it, recipe suggest counts it", commands: [add, remove, list])

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
    let categories = try Rows.categoryNames(session.library, for: templates)
    return CommandResult(
      .table(
        Table(
          key: "pantry",
          columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("category")],
          rows: templates.map { [Rows.id($0.id), .string($0.displayName), .text($0.category.flatMap { categories[$0] })] },
          emptyText: "the pantry is empty")))
  }
}
