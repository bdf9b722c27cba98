/// A grocery category ("Produce", "Dairy"). Unique by normalized name.
public struct Category: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// Semantic key: `SemanticKey.normalizedName(displayName)`.
  public var normalizedName: String
  /// The category's place in the household's default aisle order.
  public var sortOrder: Int64

  /// A category from its fields; apps create categories through `Library`, which sets their ids.
  public init(meta: RecordMetadata, displayName: String, normalizedName: String, sortOrder: Int64 = 0) {
    self.meta = meta
    self.displayName = displayName
    self.normalizedName = normalizedName
    self.sortOrder = sortOrder
  }

  /// The category kind's schema: its fields, semantic key and display field.
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

  /// Reads a category from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .category)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      normalizedName: try reader.text("normalizedName"),
      sortOrder: try reader.integer("sortOrder")
    )
  }

  /// The category's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "normalizedName": .text(normalizedName), "sortOrder": .integer(sortOrder)]
  }
}
