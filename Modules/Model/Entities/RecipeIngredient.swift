public import Foundation

/// One ingredient line of a recipe, resolved to its template. Owned by its recipe.
public struct RecipeIngredient: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The id of the recipe that owns the line.
  public var recipe: UUID
  /// The id of the ingredient template the line names.
  public var template: UUID
  /// The line as written.
  public var rawLine: String
  /// The quantity read from the line, if any.
  public var quantity: Double?
  /// The canonical unit read from the line, if any.
  public var unit: String?
  /// What the line says besides its amount and name.
  public var notes: String?
  /// The line's place in the recipe.
  public var sortOrder: Int64
  /// The heading the line stands under ("For the sauce"), when the recipe groups its
  /// ingredients; lines of one group follow each other in ``sortOrder`` (schema v6).
  public var group: String?

  /// An ingredient line from its fields; apps create ingredient lines through `Library`, which sets their ids.
  public init(
    meta: RecordMetadata, recipe: UUID, template: UUID, rawLine: String, quantity: Double? = nil,
    unit: String? = nil, notes: String? = nil, sortOrder: Int64, group: String? = nil
  ) {
    self.meta = meta
    self.recipe = recipe
    self.template = template
    self.rawLine = rawLine
    self.quantity = quantity
    self.unit = unit
    self.notes = notes
    self.sortOrder = sortOrder
    self.group = group
  }

  /// The ingredient line kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .recipeIngredient,
    fields: [
      FieldDescriptor("recipe", .reference(.recipe), onDelete: .cascade),
      FieldDescriptor("template", .reference(.ingredientTemplate)),
      FieldDescriptor("rawLine", .text, text: .line),
      FieldDescriptor("quantity", .real, optional: true),
      FieldDescriptor("unit", .text, optional: true),
      FieldDescriptor("notes", .text, optional: true, text: .line),
      FieldDescriptor("sortOrder", .integer),
      FieldDescriptor("group", .text, optional: true),
    ],
    semanticKeyField: nil,
    displayField: "rawLine",
    identity: .ownedByParent,
    ownerField: "recipe"
  )

  /// Reads an ingredient line from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .recipeIngredient)
    self.init(
      meta: record.meta,
      recipe: try reader.reference("recipe"),
      template: try reader.reference("template"),
      rawLine: try reader.text("rawLine"),
      quantity: try reader.optionalReal("quantity"),
      unit: try reader.optionalText("unit"),
      notes: try reader.optionalText("notes"),
      sortOrder: try reader.integer("sortOrder"),
      group: try reader.optionalText("group")
    )
  }

  /// The ingredient line's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    [
      "recipe": .reference(recipe), "template": .reference(template), "rawLine": .text(rawLine),
      "quantity": FieldValue(quantity), "unit": FieldValue(unit), "notes": FieldValue(notes),
      "sortOrder": .integer(sortOrder), "group": FieldValue(group),
    ]
  }
}
