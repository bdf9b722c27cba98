/// A weekly grocery list. Duplicates allowed; lists of one week are shown grouped.
public struct WeeklyList: Entity {
  public var meta: RecordMetadata
  public var displayName: String
  /// ISO week ("2026-W47").
  public var weekIdentifier: String
  public var isCompleted: Bool
  public var notes: String?

  public init(
    meta: RecordMetadata, displayName: String, weekIdentifier: String, isCompleted: Bool = false,
    notes: String? = nil
  ) {
    self.meta = meta
    self.displayName = displayName
    self.weekIdentifier = weekIdentifier
    self.isCompleted = isCompleted
    self.notes = notes
  }

  public static let schema = EntitySchema(
    kind: .weeklyList,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true, lookedUpByName: true),
      FieldDescriptor("weekIdentifier", .text, text: .code),
      FieldDescriptor("isCompleted", .bool),
      FieldDescriptor("notes", .text, optional: true, text: .paragraphs),
    ],
    semanticKeyField: nil,
    displayField: "displayName",
    identity: .duplicatesAllowed
  )

  public init(record: Record) throws(ModelError) {
    let reader = try FieldReader(record, expecting: .weeklyList)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      weekIdentifier: try reader.text("weekIdentifier"),
      isCompleted: try reader.bool("isCompleted"),
      notes: try reader.optionalText("notes")
    )
  }

  public var fieldValues: [String: FieldValue] {
    [
      "displayName": .text(displayName), "weekIdentifier": .text(weekIdentifier),
      "isCompleted": .bool(isCompleted), "notes": FieldValue(notes),
    ]
  }
}
