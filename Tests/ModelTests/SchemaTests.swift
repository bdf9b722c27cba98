import Foundation
import Model
import Testing

@Suite("Entity schemas")
struct SchemaTests {
  @Test func everyKindHasExactlyOneRegisteredSchema() {
    #expect(Set(EntitySchema.registry.keys) == Set(EntityKind.allCases))
    for kind in EntityKind.allCases {
      #expect(kind.schema.kind == kind)
    }
    for kind in EntityKind.allCases {
      #expect(kind.schema.kind == kind)
      #expect(kind.schema.field(named: kind.schema.displayField) != nil || kind.schema.displayField == "slotKey")
    }
  }

  @Test func uniqueKindsHaveASemanticKeyAndTheirKeyInputsAreFields() {
    for kind in EntityKind.allCases {
      let schema = kind.schema
      if schema.identity.isUnique { #expect(schema.semanticKeyField != nil, "\(kind)") }
      for name in schema.identityFields { #expect(schema.field(named: name) != nil, "\(kind).\(name)") }
    }
    #expect(
      EntityKind.allCases.filter { $0.schema.identity.isUnique } == [
        .category, .tag, .ingredientTemplate, .book, .plannedMeal, .weeklyList, .groceryStore,
      ])
    #expect(Book.schema.identityFields == ["title", "author", "bookKey"])
  }

  @Test func relationshipsDeclareWhatADeleteDoes() {
    let rules = Dictionary(
      uniqueKeysWithValues: EntitySchema.references(to: .recipe).map { ("\($0.kind.rawValue).\($0.field.name)", $0.field.deleteRule) })
    #expect(rules == ["recipeIngredient.recipe": .cascade, "plannedMeal.recipe": .cascade, "groceryListItem.sourceRecipe": .nullify])
    #expect(RecipeIngredient.schema.field(named: "template")?.deleteRule == .deny)
    #expect(Recipe.schema.field(named: "tags")?.deleteRule == .nullify)
  }

  @Test func everyEntityRoundTripsThroughItsRecord() throws {
    let meta = RecordMetadata(id: UUID(), createdAt: Date(timeIntervalSinceReferenceDate: 1))
    let date = try #require(CivilDate(iso: "2024-12-13"))
    let entities: [any Entity] = [
      Category(meta: meta, displayName: "Produce", normalizedName: "produce", sortOrder: 2),
      Tag(meta: meta, displayName: "Quick", normalizedName: "quick", color: "green"),
      IngredientTemplate(
        meta: meta, displayName: "Tomato", canonicalName: "tomato", aliases: ["love apple"], ingredientKind: .vegetable, category: UUID(),
        isStaple: true, usageCount: 3, lastUsed: Date(timeIntervalSinceReferenceDate: 9), onHand: true, onHandAmount: "500 g"),
      Book(meta: meta, title: "The Wok", author: "J. Kenji López-Alt", bookKey: "the wok|j. kenji lopez-alt"),
      Recipe(
        meta: meta, displayName: "Soup", titleKey: "soup", recipeIngredient: ["1 onion"], normalizedIngredients: ["onion"],
        prepTime: "PT10M", keywords: ["quick"], sourceType: .book, sourcePageNumber: 12, book: UUID(), tags: [UUID()], isFavorite: true),
      RecipeIngredient(
        meta: meta, recipe: UUID(), template: UUID(), rawLine: "1 onion", quantity: 1, unit: nil, notes: "diced", sortOrder: 0,
        group: "For the soup"),
      PlannedMeal(meta: meta, date: date, mealType: .dinner, slotKey: "2024-12-13-dinner", recipe: UUID(), notes: "guests", servings: 6),
      MealPlan(meta: meta, displayName: "Week 50", weekIdentifier: "2024-W50"),
      WeeklyList(
        meta: meta, displayName: "Groceries", weekIdentifier: "2024-W50", listKey: "2024-W50|groceries", isCompleted: true,
        notes: "Saturday", store: UUID()),
      GroceryStore(meta: meta, displayName: "Trader Joe's", normalizedName: "trader joe's", aisleOrder: [UUID(), UUID()]),
      GroceryListItem(
        meta: meta, displayName: "milk", quantity: "2 l", source: .recipe, sortOrder: 1, weeklyList: UUID(), template: UUID(),
        sourceRecipe: UUID()),
    ]
    #expect(Set(entities.map { type(of: $0).kind }) == Set(EntityKind.allCases))
    for entity in entities {
      try roundTrip(entity)
    }
  }

  private func roundTrip<E: Entity>(_ entity: E) throws {
    #expect(try E(record: entity.record) == entity)
  }

  @Test func aRecordOfAnotherKindOrWithAWrongTypeIsAModelErrorNamingTheField() {
    let meta = RecordMetadata(id: UUID(), createdAt: Date())
    #expect(throws: ModelError.self) { try Category(record: Record(kind: .tag, meta: meta, fields: [:])) }
    do {
      _ = try Category(record: Record(kind: .category, meta: meta, fields: ["displayName": .integer(1), "normalizedName": .text("x")]))
      Issue.record("accepted an integer name")
    } catch {
      #expect(error.field == "displayName")
    }
  }

  @Test func nullFieldsAreNotKeptSoEqualRecordsCompareEqual() {
    let meta = RecordMetadata(id: UUID(), createdAt: Date())
    var record = Record(kind: .tag, meta: meta, fields: ["displayName": .text("Quick"), "color": .null])
    #expect(record.fields.keys.sorted() == ["displayName"])
    record["color"] = .text("red")
    record["color"] = .null
    #expect(record == Record(kind: .tag, meta: meta, fields: ["displayName": .text("Quick")]))
  }
}
