/// A recipe tag ("weeknight", "vegetarian"). Unique by normalized name.
public struct Tag: Entity {
  public var meta: RecordMetadata
  public var displayName: String
  /// Semantic key: `SemanticKey.normalizedName(displayName)`.
  public var normalizedName: String
  /// A colour name or hex string chosen by the user.
  public var color: String?

  public init(meta: RecordMetadata, displayName: String, normalizedName: String, color: String? = nil) {
    self.meta = meta
    self.displayName = displayName
    self.normalizedName = normalizedName
    self.color = color
  }

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

  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .tag)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      normalizedName: try reader.text("normalizedName"),
      color: try reader.optionalText("color")
    )
  }

  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "normalizedName": .text(normalizedName), "color": FieldValue(color)]
  }
}
