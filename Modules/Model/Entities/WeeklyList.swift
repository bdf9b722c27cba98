public import Foundation

/// A weekly grocery list, unique by its ISO week and normalized name (Docs/DESIGN.md §2): one
/// "Weekly" list per week, beside a "Costco" and a "Farmers market" of that week.
public struct WeeklyList: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// ISO week ("2026-W47").
  public var weekIdentifier: String
  /// Semantic key: `SemanticKey.listKey(week: weekIdentifier, name: displayName)`,
  /// "2026-W47|weekly". Nil only on a list an older build wrote that no migration has
  /// keyed yet (it is then shown, but not merged with another).
  public var listKey: String?
  /// Whether the list is done.
  public var isCompleted: Bool
  /// Notes on the list.
  public var notes: String?
  /// The store the list is shopped at: `list show` follows its aisle order (schema v5).
  public var store: UUID?

  /// A weekly list from its fields; apps create weekly lists through `Library`, which sets their ids.
  public init(
    meta: RecordMetadata, displayName: String, weekIdentifier: String, listKey: String?, isCompleted: Bool = false,
    notes: String? = nil, store: UUID? = nil
  ) {
    self.meta = meta
    self.displayName = displayName
    self.weekIdentifier = weekIdentifier
    self.listKey = listKey
    self.isCompleted = isCompleted
    self.notes = notes
    self.store = store
  }

  /// The weekly list kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .weeklyList,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true, lookedUpByName: true),
      FieldDescriptor("weekIdentifier", .text, text: .code),
      // Optional: lists synced from a device on schema v3 arrive without it (Docs/SYNC.md).
      FieldDescriptor("listKey", .text, optional: true, text: .key),
      FieldDescriptor("isCompleted", .bool),
      FieldDescriptor("notes", .text, optional: true, text: .paragraphs),
      FieldDescriptor("store", .reference(.groceryStore), optional: true),
    ],
    semanticKeyField: "listKey",
    displayField: "displayName",
    identity: .getOrCreate,
    keyInputs: ["displayName", "weekIdentifier"]
  )

  /// Reads a weekly list from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .weeklyList)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      weekIdentifier: try reader.text("weekIdentifier"),
      listKey: try reader.optionalText("listKey"),
      isCompleted: try reader.bool("isCompleted"),
      notes: try reader.optionalText("notes"),
      store: try reader.optionalReference("store")
    )
  }

  /// The weekly list's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    [
      "displayName": .text(displayName), "weekIdentifier": .text(weekIdentifier), "listKey": FieldValue(listKey),
      "isCompleted": .bool(isCompleted), "notes": FieldValue(notes), "store": FieldValue(store),
    ]
  }
}
