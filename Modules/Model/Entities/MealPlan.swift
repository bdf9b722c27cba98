/// A named meal plan, usually for one ISO week. Duplicates allowed.
public struct MealPlan: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// ISO week ("2026-W47"), when the plan is for one week.
  public var weekIdentifier: String?

  /// A meal plan from its fields; apps create meal plans through `Library`, which sets their ids.
  public init(meta: RecordMetadata, displayName: String, weekIdentifier: String? = nil) {
    self.meta = meta
    self.displayName = displayName
    self.weekIdentifier = weekIdentifier
  }

  /// The meal plan kind's schema: its fields, semantic key and display field.
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

  /// Reads a meal plan from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .mealPlan)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      weekIdentifier: try reader.optionalText("weekIdentifier")
    )
  }

  /// The meal plan's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "weekIdentifier": FieldValue(weekIdentifier)]
  }
}
