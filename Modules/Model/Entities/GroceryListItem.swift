public import Foundation

/// One line on a weekly list. Duplicates are intended (two recipes both need milk) and
/// consolidated when shown.
public struct GroceryListItem: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// Free-form quantity as entered ("2 cups", "1").
  public var quantity: String?
  /// Whether the item is checked off.
  public var isCompleted: Bool
  /// When it was checked off.
  public var dateCompleted: Date?
  /// How the item got on the list: by hand, from a recipe or from a plan.
  public var source: ItemSource
  /// The item's place on its list.
  public var sortOrder: Int64
  /// The id of the list it is on.
  public var weeklyList: UUID
  /// The id of its ingredient template, when it names a known ingredient.
  public var template: UUID?
  /// The id of the recipe that added it, if any.
  public var sourceRecipe: UUID?
  /// The amount `list add-plan` last wrote to this item ("" for none), so a later run can
  /// tell an amount changed by hand from its own; nil for items it did not add (schema v6).
  public var planAmount: String?

  /// A list item from its fields; apps create list items through `Library`, which sets their ids.
  public init(
    meta: RecordMetadata, displayName: String, quantity: String? = nil, isCompleted: Bool = false,
    dateCompleted: Date? = nil, source: ItemSource = .manual, sortOrder: Int64 = 0, weeklyList: UUID,
    template: UUID? = nil, sourceRecipe: UUID? = nil, planAmount: String? = nil
  ) {
    self.meta = meta
    self.displayName = displayName
    self.quantity = quantity
    self.isCompleted = isCompleted
    self.dateCompleted = dateCompleted
    self.source = source
    self.sortOrder = sortOrder
    self.weeklyList = weeklyList
    self.template = template
    self.sourceRecipe = sourceRecipe
    self.planAmount = planAmount
  }

  /// The list item kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .groceryListItem,
    fields: [
      FieldDescriptor("displayName", .text),
      FieldDescriptor("quantity", .text, optional: true),
      FieldDescriptor("isCompleted", .bool),
      FieldDescriptor("dateCompleted", .timestamp, optional: true),
      FieldDescriptor("source", .enumeration(ItemSource.allCases.map(\.rawValue)), default: .text(ItemSource.manual.rawValue)),
      FieldDescriptor("sortOrder", .integer),
      FieldDescriptor("weeklyList", .reference(.weeklyList), onDelete: .cascade),
      FieldDescriptor("template", .reference(.ingredientTemplate), optional: true),
      FieldDescriptor("sourceRecipe", .reference(.recipe), optional: true),
      FieldDescriptor("planAmount", .text, optional: true),
    ],
    semanticKeyField: nil,
    displayField: "displayName",
    identity: .ownedByParent,
    ownerField: "weeklyList"
  )

  /// Reads a list item from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .groceryListItem)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      quantity: try reader.optionalText("quantity"),
      isCompleted: try reader.bool("isCompleted"),
      dateCompleted: try reader.optionalTimestamp("dateCompleted"),
      source: try reader.optionalEnumeration("source", as: ItemSource.self) ?? .manual,
      sortOrder: try reader.integer("sortOrder"),
      weeklyList: try reader.reference("weeklyList"),
      template: try reader.optionalReference("template"),
      sourceRecipe: try reader.optionalReference("sourceRecipe"),
      planAmount: try reader.optionalText("planAmount")
    )
  }

  /// The list item's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    [
      "displayName": .text(displayName), "quantity": FieldValue(quantity), "isCompleted": .bool(isCompleted),
      "dateCompleted": FieldValue(dateCompleted), "source": .text(source.rawValue),
      "sortOrder": .integer(sortOrder), "weeklyList": .reference(weeklyList),
      "template": FieldValue(template), "sourceRecipe": FieldValue(sourceRecipe), "planAmount": FieldValue(planAmount),
    ]
  }
}
