import CommandLanguage
import Foundation
import Model
import Repositories

/// book add, list, rename, delete.
enum BookCommands {
  static let add = CommandSpec(
    "book add", summary: "Create a book, or find the one with the same title and author.",
    parameters: [.rest("title", completion: .names(.book), help: "the book's title")],
    options: [.value("author", "who wrote it", placeholder: "NAME")],
    examples: ["book add \"The Wok\" --author \"J. Kenji López-Alt\""]
  ) { invocation, session in
    let author = invocation.option("author")
    let existing = try session.library.books.find(invocation.argument("title"), author: author)
    let book = try session.library.books.getOrCreate(title: invocation.argument("title"), author: author)
    return CommandResult(.message("\(existing == nil ? "created" : "found existing") book '\(book.title)'"), .table(Rows.books([book])))
  }

  static let list = CommandSpec("book list", summary: "All books by title.", examples: ["book list"]) { _, session in
    CommandResult(.table(Rows.books(try session.library.books.all())))
  }

  static let rename = CommandSpec(
    "book rename", summary: "Retitle a book; refused when that title and author already exist.",
    parameters: [.rest("old", .name, completion: .names(.book)), .keyword("to"), .rest("new", .name)],
    examples: ["book rename \"Salt Fat Acid Heat\" to \"Salt, Fat, Acid, Heat\""]
  ) { invocation, session in
    let book = try session.library.books.rename(invocation.argument("old"), to: invocation.argument("new"))
    return CommandResult(.message("renamed book to '\(book.title)'"), .table(Rows.books([book])))
  }

  static let delete = CommandSpec(
    "book delete", summary: "Delete a book; its recipes keep their page numbers without the link.",
    parameters: [.rest("title", completion: .names(.book))],
    examples: ["book delete \"The Wok\""]
  ) { invocation, session in
    let book = try session.library.books.delete(invocation.argument("title"))
    return CommandResult(.message("deleted book '\(book.title)'"), .table(Rows.books([book])))
  }
}
