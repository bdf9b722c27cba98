public import Foundation

/// A meal planned for one slot (a civil date and a meal type). One per slot.
public struct PlannedMeal: Entity {
  public var meta: RecordMetadata
  public var date: CivilDate
  public var mealType: MealType
  /// Semantic key: `YYYY-MM-DD-mealType`.
  public var slotKey: String
  public var recipe: UUID?
  public var mealPlan: UUID?
  public var notes: String?
  /// How many servings are planned, when the planner said: `list add-plan` scales the
  /// recipe to it (schema v5).
  public var servings: Double?

  public init(
    meta: RecordMetadata, date: CivilDate, mealType: MealType, slotKey: String, recipe: UUID?,
    mealPlan: UUID? = nil, notes: String? = nil, servings: Double? = nil
  ) {
    self.meta = meta
    self.date = date
    self.mealType = mealType
    self.slotKey = slotKey
    self.recipe = recipe
    self.mealPlan = mealPlan
    self.notes = notes
    self.servings = servings
  }

  public static let schema = EntitySchema(
    kind: .plannedMeal,
    fields: [
      FieldDescriptor("date", .civilDate),
      FieldDescriptor("mealType", .enumeration(MealType.allCases.map(\.rawValue))),
      FieldDescriptor("slotKey", .text, text: .key),
      FieldDescriptor("recipe", .reference(.recipe), optional: true, onDelete: .cascade),
      FieldDescriptor("mealPlan", .reference(.mealPlan), optional: true),
      FieldDescriptor("notes", .text, optional: true, text: .paragraphs),
      FieldDescriptor("servings", .real, optional: true, reals: 0...1_000),
    ],
    semanticKeyField: "slotKey",
    displayField: "slotKey",
    identity: .onePerSlot,
    keyInputs: ["date", "mealType"]
  )

  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .plannedMeal)
    self.init(
      meta: record.meta,
      date: try reader.civilDate("date"),
      mealType: try reader.enumeration("mealType", as: MealType.self),
      slotKey: try reader.text("slotKey"),
      recipe: try reader.optionalReference("recipe"),
      mealPlan: try reader.optionalReference("mealPlan"),
      notes: try reader.optionalText("notes"),
      servings: try reader.optionalReal("servings")
    )
  }

  public var fieldValues: [String: FieldValue] {
    [
      "date": .text(date.description), "mealType": .text(mealType.rawValue), "slotKey": .text(slotKey),
      "recipe": FieldValue(recipe), "mealPlan": FieldValue(mealPlan), "notes": FieldValue(notes),
      "servings": FieldValue(servings),
    ]
  }
}
