import CommandLanguage
import Foundation
import Model
import Repositories

/// tag add, list, rename, delete.
enum TagCommands {
  static let add = CommandSpec(
    "tag add", summary: "Create a tag, or find the one with the same key; --color sets its colour.",
    parameters: [.rest("name", .name, completion: .names(.tag), help: "the tag's name")],
    options: [.value("color", "a colour name or hex value", placeholder: "COLOR")],
    examples: ["tag add weeknight --color green"]
  ) { invocation, session in
    let existing = try session.library.tags.find(invocation.argument("name"))
    let tag = try session.library.tags.getOrCreate(invocation.argument("name"), color: invocation.option("color"))
    return CommandResult(.message("\(existing == nil ? "created" : "found existing") tag '\(tag.displayName)'"), .table(Rows.tags([tag])))
  }

  static let list = CommandSpec("tag list", summary: "All tags by name.", examples: ["tag list"]) { _, session in
    CommandResult(.table(Rows.tags(try session.library.tags.all())))
  }

  static let rename = CommandSpec(
    "tag rename", summary: "Rename a tag; refused when another tag has the new name's key.",
    parameters: [.rest("old", .name, completion: .names(.tag)), .keyword("to"), .rest("new", .name)],
    examples: ["tag rename weeknight to \"quick weeknight\""]
  ) { invocation, session in
    let tag = try session.library.tags.rename(invocation.argument("old"), to: invocation.argument("new"))
    return CommandResult(.message("renamed tag to '\(tag.displayName)'"), .table(Rows.tags([tag])))
  }

  static let delete = CommandSpec(
    "tag delete", summary: "Delete a tag and take it off every recipe.",
    parameters: [.rest("name", .name, completion: .names(.tag))],
    examples: ["tag delete weeknight"]
  ) { invocation, session in
    let tag = try session.library.tags.delete(invocation.argument("name"))
    return CommandResult(.message("deleted tag '\(tag.displayName)'"), .table(Rows.tags([tag])))
  }
}
