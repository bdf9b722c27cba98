public import Foundation

/// One line on a weekly list. Duplicates are intended (two recipes both need milk) and
/// consolidated when shown.
public struct GroceryListItem: Entity {
  public var meta: RecordMetadata
  public var displayName: String
  /// Free-form quantity as entered ("2 cups", "1").
  public var quantity: String?
  public var isCompleted: Bool
  public var dateCompleted: Date?
  public var source: ItemSource
  public var sortOrder: Int64
  public var weeklyList: UUID
  public var template: UUID?
  public var sourceRecipe: UUID?
  /// The amount `list add-plan` last wrote to this item ("" for none), so a later run can
  /// tell an amount changed by hand from its own; nil for items it did not add (schema v6).
  public var planAmount: String?

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

  public var fieldValues: [String: FieldValue] {
    [
      "displayName": .text(displayName), "quantity": FieldValue(quantity), "isCompleted": .bool(isCompleted),
      "dateCompleted": FieldValue(dateCompleted), "source": .text(source.rawValue),
      "sortOrder": .integer(sortOrder), "weeklyList": .reference(weeklyList),
      "template": FieldValue(template), "sourceRecipe": FieldValue(sourceRecipe), "planAmount": FieldValue(planAmount),
    ]
  }
}
