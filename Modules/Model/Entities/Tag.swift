/// A recipe tag ("weeknight", "vegetarian"). Unique by normalized name.
public struct Tag: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// Semantic key: `SemanticKey.normalizedName(displayName)`.
  public var normalizedName: String
  /// A colour name or hex string chosen by the user.
  public var color: String?

  /// A tag from its fields; apps create tags through `Library`, which sets their ids.
  public init(meta: RecordMetadata, displayName: String, normalizedName: String, color: String? = nil) {
    self.meta = meta
    self.displayName = displayName
    self.normalizedName = normalizedName
    self.color = color
  }

  /// The tag kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .tag,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true),
      FieldDescriptor("normalizedName", .text, text: .key),
      FieldDescriptor("color", .text, optional: true, text: .code),
    ],
    semanticKeyField: "normalizedName",
    displayField: "displayName",
    identity: .getOrCreate
  )

  /// Reads a tag from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .tag)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      normalizedName: try reader.text("normalizedName"),
      color: try reader.optionalText("color")
    )
  }

  /// The tag's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "normalizedName": .text(normalizedName), "color": FieldValue(color)]
  }
}
