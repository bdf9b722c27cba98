/// A grocery category ("Produce", "Dairy"). Unique by normalized name.
public struct Category: Entity {
  public var meta: RecordMetadata
  public var displayName: String
  /// Semantic key: `SemanticKey.normalizedName(displayName)`.
  public var normalizedName: String
  public var sortOrder: Int64

  public init(meta: RecordMetadata, displayName: String, normalizedName: String, sortOrder: Int64 = 0) {
    self.meta = meta
    self.displayName = displayName
    self.normalizedName = normalizedName
    self.sortOrder = sortOrder
  }

  public static let schema = EntitySchema(
    kind: .category,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true),
      FieldDescriptor("normalizedName", .text, text: .key),
      FieldDescriptor("sortOrder", .integer, indexed: true, integers: 0...1_000_000),
    ],
    semanticKeyField: "normalizedName",
    displayField: "displayName",
    identity: .getOrCreate
  )

  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .category)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      normalizedName: try reader.text("normalizedName"),
      sortOrder: try reader.integer("sortOrder")
    )
  }

  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "normalizedName": .text(normalizedName), "sortOrder": .integer(sortOrder)]
  }
}
