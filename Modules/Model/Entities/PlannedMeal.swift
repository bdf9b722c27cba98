public import Foundation

/// A meal planned for one slot (a civil date and a meal type). One per slot.
public struct PlannedMeal: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The day of the slot.
  public var date: CivilDate
  /// The meal of the slot: breakfast, lunch, dinner or snack.
  public var mealType: MealType
  /// Semantic key: `YYYY-MM-DD-mealType`.
  public var slotKey: String
  /// The id of the recipe planned.
  public var recipe: UUID?
  /// The id of the meal plan it belongs to, if any.
  public var mealPlan: UUID?
  /// Notes on the meal.
  public var notes: String?
  /// How many servings are planned, when the planner said: `list add-plan` scales the
  /// recipe to it (schema v5).
  public var servings: Double?

  /// A planned meal from its fields; apps create planned meals through `Library`, which sets their ids.
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

  /// The planned meal kind's schema: its fields, semantic key and display field.
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

  /// Reads a planned meal from a record; throws when a field is missing or has the wrong type.
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

  /// The planned meal's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    [
      "date": .text(date.description), "mealType": .text(mealType.rawValue), "slotKey": .text(slotKey),
      "recipe": FieldValue(recipe), "mealPlan": FieldValue(mealPlan), "notes": FieldValue(notes),
      "servings": FieldValue(servings),
    ]
  }
}
