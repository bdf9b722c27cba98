public import Foundation

/// A shop the household buys from ("Trader Joe's", "Costco"), unique by normalized name,
/// with its own aisle order: a list shown for it follows that order.
///
/// The household's default order is the categories' own ``Category/sortOrder``; a store's
/// ``aisleOrder`` names the categories it puts first, in its order, and every other
/// category follows in the default order. The order is one field, so it syncs and merges
/// like any field: two devices that order one store differently converge on the later
/// order (Docs/SHOPPING.md, "Stores").
public struct GroceryStore: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// Semantic key: `SemanticKey.normalizedName(displayName)`.
  public var normalizedName: String
  /// Categories in this store's walking order; the others follow in the default order.
  public var aisleOrder: [UUID]

  /// A grocery store from its fields; apps create grocery stores through `Library`, which sets their ids.
  public init(meta: RecordMetadata, displayName: String, normalizedName: String, aisleOrder: [UUID] = []) {
    self.meta = meta
    self.displayName = displayName
    self.normalizedName = normalizedName
    self.aisleOrder = aisleOrder
  }

  /// The grocery store kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .groceryStore,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true),
      FieldDescriptor("normalizedName", .text, text: .key),
      FieldDescriptor("aisleOrder", .referenceList(.category)),
    ],
    semanticKeyField: "normalizedName",
    displayField: "displayName",
    identity: .getOrCreate
  )

  /// Reads a grocery store from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .groceryStore)
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      normalizedName: try reader.text("normalizedName"),
      aisleOrder: try reader.references("aisleOrder")
    )
  }

  /// The grocery store's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    ["displayName": .text(displayName), "normalizedName": .text(normalizedName), "aisleOrder": .referenceList(aisleOrder)]
  }
}
