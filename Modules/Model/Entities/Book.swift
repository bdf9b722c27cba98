/// A cookbook. Unique by normalized title and author.
public struct Book: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The book's display field (books keep `title`).
  public var title: String
  /// The book's author, which with the title identifies the book.
  public var author: String?
  /// Semantic key: `SemanticKey.bookKey(title:author:)`.
  public var bookKey: String

  /// A book from its fields; apps create books through `Library`, which sets their ids.
  public init(meta: RecordMetadata, title: String, author: String?, bookKey: String) {
    self.meta = meta
    self.title = title
    self.author = author
    self.bookKey = bookKey
  }

  /// The book kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .book,
    fields: [
      FieldDescriptor("title", .text, indexed: true),
      FieldDescriptor("author", .text, optional: true),
      FieldDescriptor("bookKey", .text, text: .key),
    ],
    semanticKeyField: "bookKey",
    displayField: "title",
    identity: .getOrCreate,
    keyInputs: ["title", "author"]
  )

  /// Reads a book from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .book)
    self.init(
      meta: record.meta,
      title: try reader.text("title"),
      author: try reader.optionalText("author"),
      bookKey: try reader.text("bookKey")
    )
  }

  /// The book's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    ["title": .text(title), "author": FieldValue(author), "bookKey": .text(bookKey)]
  }
}
