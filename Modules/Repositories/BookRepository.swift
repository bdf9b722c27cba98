import Foundation
public import Model
import Normalization
import Persistence

/// Cookbooks, unique by normalized title and author.
public struct BookRepository {
  let context: RepositoryContext

  /// Operations for one author: the key of a title depends on the author.
  func operations(author: String?) -> UniqueKindOperations<Book> {
    UniqueKindOperations(
      context: context,
      key: { SemanticKey.bookKey(title: $0, author: author) },
      make: { meta, title, key in Book(meta: meta, title: title, author: author, bookKey: key) },
      renamed: { book, title, key in
        var book = book
        book.title = title
        book.bookKey = key
        return book
      }
    )
  }

  /// The book with this title and author, created when missing.
  /// - Throws: ``RepositoryError`` for an empty or overlong title or author.
  public func getOrCreate(title: String, author: String?) throws -> Book {
    let cleanAuthor = try author.map { try NameRules.clean($0, for: .book) }
    return try context.write { try operations(author: cleanAuthor).getOrCreate(title, in: $0).entity }
  }

  /// The book with this id, or with this title (and author, when given). A title alone
  /// matches any author when only one book has that title.
  public func find(_ titleOrID: String, author: String? = nil) throws -> Book? {
    try context.read { try find(titleOrID, author: author, in: $0) }
  }

  func find(_ titleOrID: String, author: String?, in reader: any StoreReader) throws -> Book? {
    if author != nil || UUID(uuidString: titleOrID) != nil {
      return try operations(author: author).find(titleOrID, in: reader)
    }
    let title = try NameRules.clean(titleOrID, for: .book)
    let titleKey = SemanticKey.titleKey(title)
    let matches = try reader.entities(Book.self, RecordQuery(.book)).filter { SemanticKey.titleKey($0.title) == titleKey }
    if matches.count > 1 { throw RepositoryError.ambiguous(.book, title, ids: matches.map(\.id)) }
    return matches.first
  }

  /// All live books by title.
  public func all() throws -> [Book] { try context.read { try $0.entities(Book.self, RecordQuery(.book)) } }

  /// Retitles a book, refusing a title and author another book already has.
  public func rename(_ titleOrID: String, to newTitle: String) throws -> Book {
    try context.write { writer in
      guard let book = try find(titleOrID, author: nil, in: writer) else { throw RepositoryError.notFound(.book, titleOrID) }
      return try operations(author: book.author).rename(book.id.uuidString, to: newTitle, in: writer)
    }
  }

  /// Deletes a book; its recipes keep their page numbers but lose the book link.
  public func delete(_ titleOrID: String) throws -> Book {
    try context.write { writer in
      guard let book = try find(titleOrID, author: nil, in: writer) else { throw RepositoryError.notFound(.book, titleOrID) }
      return try operations(author: book.author).delete(book.id.uuidString, in: writer)
    }
  }
}
