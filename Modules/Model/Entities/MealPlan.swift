/// A named meal plan, usually for one ISO week. Duplicates allowed.
public struct MealPlan: Entity {
  public var meta: RecordMetadata
  public var displayName: String
  /// ISO week ("2026-W47"), when the plan is for one week.
  public var weekIdentifier: String?

  public init(meta: RecordMetadata, displayName: String, weekIdentifier: String? = nil) {
    self.meta = meta
    self.displayName = displayName
    self.weekIdentifier = weekIdentifier
  }

  public static let schema = EntitySchema(
    kind: .mealPlan,
    fields: [
      FieldDescriptor("displayName", .text),
      FieldDescriptor("weekIdentifier", .text, optional: true, text: .code),
    ],
    semanticKeyField: nil,
    displayField: "displayName",
    identity: .duplicatesAllowed
  )

  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .mealPlan)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      weekIdentifier: try reader.optionalText("weekIdentifier")
    )
  }

  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "weekIdentifier": FieldValue(weekIdentifier)]
  }
}
