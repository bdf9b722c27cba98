/// A cookbook. Unique by normalized title and author.
public struct Book: Entity {
  public var meta: RecordMetadata
  /// The book's display field (books keep `title`).
  public var title: String
  public var author: String?
  /// Semantic key: `SemanticKey.bookKey(title:author:)`.
  public var bookKey: String

  public init(meta: RecordMetadata, title: String, author: String?, bookKey: String) {
    self.meta = meta
    self.title = title
    self.author = author
    self.bookKey = bookKey
  }

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

  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .book)
    self.init(
      meta: record.meta,
      title: try reader.text("title"),
      author: try reader.optionalText("author"),
      bookKey: try reader.text("bookKey")
    )
  }

  public var fieldValues: [String: FieldValue] {
    ["title": .text(title), "author": FieldValue(author), "bookKey": .text(bookKey)]
  }
}
