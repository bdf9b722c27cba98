public import Foundation

/// A known ingredient ("tomato"), found by its canonical name or any alias.
public struct IngredientTemplate: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// Semantic key: `SemanticKey.canonicalIngredientName(displayName)`.
  public var canonicalName: String
  /// Other names that resolve to this template, stored canonicalized.
  public var aliases: [String]
  /// What sort of ingredient it is.
  public var ingredientKind: IngredientKind
  /// The id of its grocery category (aisle), if any.
  public var category: UUID?
  /// Whether it is a staple the kitchen always has: lists leave it off.
  public var isStaple: Bool
  /// How many recipe lines and list items have used it.
  public var usageCount: Int64
  /// When it was last used.
  public var lastUsed: Date?
  /// How many grams one US cup of it weighs, when the user gave it: lets a list add
  /// "2 cups" and "500 g" of flour into one mass.
  public var gramsPerCup: Double?
  /// In the household's pantry: `list add-recipe` skips it and `recipe suggest` counts it
  /// as on hand. Synced like any field, so the pantry is one set for every device.
  public var onHand: Bool
  /// How much is on hand, as written ("500 g", "6", "2 cups"), when the household said;
  /// nil means "some" (schema v5). Set only while ``onHand``; a list shows what its
  /// recipes need beyond it.
  public var onHandAmount: String?

  /// An ingredient template from its fields; apps create ingredient templates through `Library`, which sets their ids.
  public init(
    meta: RecordMetadata,
    displayName: String,
    canonicalName: String,
    aliases: [String] = [],
    ingredientKind: IngredientKind = .other,
    category: UUID? = nil,
    isStaple: Bool = false,
    usageCount: Int64 = 0,
    lastUsed: Date? = nil,
    gramsPerCup: Double? = nil,
    onHand: Bool = false,
    onHandAmount: String? = nil
  ) {
    self.meta = meta
    self.displayName = displayName
    self.canonicalName = canonicalName
    self.aliases = aliases
    self.ingredientKind = ingredientKind
    self.category = category
    self.isStaple = isStaple
    self.usageCount = usageCount
    self.lastUsed = lastUsed
    self.gramsPerCup = gramsPerCup
    self.onHand = onHand
    self.onHandAmount = onHandAmount
  }

  /// The ingredient template kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .ingredientTemplate,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true),
      FieldDescriptor("canonicalName", .text, text: .key),
      FieldDescriptor("aliases", .textList),
      FieldDescriptor(
        "ingredientKind", .enumeration(IngredientKind.allCases.map(\.rawValue)), default: .text(IngredientKind.other.rawValue)),
      FieldDescriptor("category", .reference(.category), optional: true),
      FieldDescriptor("isStaple", .bool),
      FieldDescriptor("usageCount", .integer),
      FieldDescriptor("lastUsed", .timestamp, optional: true),
      FieldDescriptor("gramsPerCup", .real, optional: true, reals: 0...1_000),
      // Optional: stored only while true, so a template that was never in the pantry
      // (every template written before the pantry existed) reads the same as one taken out.
      FieldDescriptor("onHand", .bool, optional: true),
      FieldDescriptor("onHandAmount", .text, optional: true),
    ],
    semanticKeyField: "canonicalName",
    displayField: "displayName",
    identity: .getOrCreate
  )

  /// Reads an ingredient template from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .ingredientTemplate)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      canonicalName: try reader.text("canonicalName"),
      aliases: try reader.textList("aliases"),
      ingredientKind: try reader.optionalEnumeration("ingredientKind", as: IngredientKind.self) ?? .other,
      category: try reader.optionalReference("category"),
      isStaple: try reader.bool("isStaple"),
      usageCount: try reader.integer("usageCount"),
      lastUsed: try reader.optionalTimestamp("lastUsed"),
      gramsPerCup: try reader.optionalReal("gramsPerCup"),
      onHand: try reader.bool("onHand"),
      onHandAmount: try reader.optionalText("onHandAmount")
    )
  }

  /// The ingredient template's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    [
      "displayName": .text(displayName), "canonicalName": .text(canonicalName), "aliases": .textList(aliases),
      "ingredientKind": .text(ingredientKind.rawValue), "category": FieldValue(category),
      "isStaple": .bool(isStaple), "usageCount": .integer(usageCount), "lastUsed": FieldValue(lastUsed),
      "gramsPerCup": FieldValue(gramsPerCup), "onHand": onHand ? .bool(true) : .null,
      "onHandAmount": FieldValue(onHandAmount),
    ]
  }
}
