import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

/// The whole-kitchen archive: export, import into an empty or an existing kitchen,
/// idempotence, and refusals that write nothing.
@Suite struct KitchenArchiveTests {
  static let schemaVersion = 6

  /// A kitchen with every kind: ordered categories, a tag with a colour, a book, an
  /// ingredient with an alias, a density and a category, a pantry with amounts, recipes
  /// with lines, sections, tags and a book, a meal plan and planned meals, a store with its
  /// aisle order, and a weekly list shopped there with items, one checked.
  static func richKitchen(_ backend: TestBackend, seed: UInt64 = 1) throws -> Library {
    let library = Library(store: try backend.makeStore(), now: { Fixtures.epoch }, ids: .seeded(seed))
    _ = try library.categories.getOrCreate("Produce")
    _ = try library.categories.getOrCreate("Dairy")
    _ = try library.categories.getOrCreate("Pantry")
    _ = try library.categories.setOrder(["Dairy", "Produce"])
    _ = try library.tags.getOrCreate("Weeknight", color: "green")
    _ = try library.ingredients.getOrCreate("flour", kind: .grain, category: "Pantry", isStaple: true, gramsPerCup: 125)
    _ = try library.ingredients.getOrCreate("spring onion", kind: .vegetable, category: "Produce", aliases: ["chive onion"])
    var friedRice = RecipeDraft(
      name: "Egg Fried Rice", ingredients: ["2 eggs", "3 cups cooked rice", "2 spring onions, sliced"],
      instructions: ["## The eggs", "Scramble the eggs.", "## The rice", "Fry the rice.", "Fold in the eggs."],
      description: "Quick.", cuisine: "Chinese", yield: "2 servings", prepTime: "10", cookTime: "PT15M",
      keywords: ["quick", "rice"], tags: ["Weeknight"], author: "Ada Baker", datePublished: "2024-03-05",
      book: "The Wok", bookAuthor: "J. Kenji López-Alt", page: 120, notes: "Day-old rice.", isFavorite: true)
    friedRice.ingredientGroups = [nil, "To fry", "To fry"]
    _ = try library.recipes.create(friedRice)
    _ = try library.recipes.create(RecipeDraft(name: "Pancakes", ingredients: ["1 cup flour", "1 cup milk", "1 egg"]))
    _ = try library.recipes.cooked("Pancakes")
    _ = try library.pantry.set("flour", amount: "500 g")
    _ = try library.pantry.add("egg")
    _ = try library.stores.getOrCreate("Costco")
    _ = try library.stores.setOrder(of: "Costco", ["Dairy", "Pantry"])
    _ = try library.mealPlans.create("Weeknights", week: "2024-W50")
    _ = try library.meals.plan(date: "2024-12-13", mealType: "dinner", recipe: "Egg Fried Rice", notes: "double it", servings: 4)
    _ = try library.meals.plan(date: "2024-12-14", mealType: "breakfast", recipe: "Pancakes")
    _ = try library.lists.create("Weekly", week: "2024-W50")
    _ = try library.lists.addItem("milk", quantity: "1 l", to: "Weekly")
    _ = try library.lists.addRecipe("Pancakes", to: "Weekly")
    _ = try library.lists.check("milk", on: "Weekly")
    _ = try library.lists.setStore(of: "Weekly", to: "Costco")
    return library
  }

  static func emptyKitchen(_ backend: TestBackend, seed: UInt64 = 99) throws -> Library {
    Library(store: try backend.makeStore(), now: { Fixtures.epoch }, ids: .seeded(seed))
  }

  static func exported(_ library: Library) throws -> Data {
    try KitchenArchive.encode(try library.exportKitchen(schemaVersion: schemaVersion))
  }

  @Test(arguments: TestBackend.allCases)
  func exportImportIntoAnEmptyKitchenAndExportAgainGivesTheSameBytes(_ backend: TestBackend) throws {
    let source = try Self.richKitchen(backend)
    let first = try Self.exported(source)
    let document = try KitchenArchive.decode(first)
    for kind in EntityKind.allCases {
      #expect(!(document.records[kind] ?? []).isEmpty, "the rich kitchen has no \(kind.rawValue)")
    }
    let restored = try Self.emptyKitchen(backend)
    let summary = try restored.importKitchen(document)
    #expect(summary.total.created == document.recordCount)
    #expect(summary.total.updated == 0 && summary.total.unchanged == 0)
    let second = try Self.exported(restored)
    #expect(String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self))
    #expect(try restored.counts() == source.counts())
    // What the archive holds is what the kitchen shows: sections, pantry amounts, orders.
    let recipe = try #require(try restored.recipes.find("Egg Fried Rice"))
    #expect(recipe.recipeInstructions.first == "## The eggs")
    #expect(try restored.recipes.details("Egg Fried Rice").lines.map(\.ingredient.group) == [nil, "To fry", "To fry"])
    #expect(try restored.pantry.all().map(\.onHandAmount).contains("500 g"))
    #expect(try restored.stores.aisleOrder("Costco").prefix(2).map(\.displayName) == ["Dairy", "Pantry"])
    #expect(try restored.lists.items(of: "Weekly").contains { $0.displayName == "milk" && $0.isCompleted })
  }

  @Test func theSameKitchenGivesTheSameDocumentWithSortedRecords() throws {
    let library = try Self.richKitchen(.memory)
    #expect(try Self.exported(library) == Self.exported(library))
    let document = try library.exportKitchen(schemaVersion: Self.schemaVersion)
    #expect(document.format == "forager-kitchen" && document.formatVersion == 1 && document.schemaVersion == 6)
    // From the library's clock, to the millisecond.
    #expect(document.exportedAt.hasSuffix(".123Z"))
    for (_, records) in document.records {
      let keys = records.map { [$0.key, $0.id.uuidString] }
      #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
    }
    let template = try #require(document.records[.ingredientTemplate]?.first { $0.key == "flour" })
    guard case .object(let category)? = template.fields["category"] else {
      Issue.record("a relationship is written as {id, key}")
      return
    }
    #expect(category["key"] == .string("pantry"))
    #expect(category["id"] != nil)
  }

  @Test(arguments: TestBackend.allCases)
  func importIntoAKitchenThatSharesKeysMergesInsteadOfDuplicating(_ backend: TestBackend) throws {
    let document = try KitchenArchive.decode(try Self.exported(try Self.richKitchen(backend)))
    let kitchen = try Self.emptyKitchen(backend, seed: 7)
    // "produce" under another id: the name-based id is taken by a deleted record first.
    _ = try kitchen.categories.getOrCreate("produce")
    _ = try kitchen.categories.delete("produce")
    let produce = try kitchen.categories.getOrCreate("PRODUCE")
    _ = try kitchen.categories.getOrCreate("Frozen")
    // A recipe of the same title with its own random id and other lines.
    guard
      case .created(let rice) = try kitchen.recipes.create(
        RecipeDraft(name: "egg fried rice!", ingredients: ["1 egg", "1 cup rice", "1 tbsp soy sauce", "salt"]))
    else {
      Issue.record("the kitchen's recipe was not created")
      return
    }
    let summary = try kitchen.importKitchen(document)
    #expect(summary.kinds[.category]?.created == 2)  // Dairy, Pantry
    #expect(summary.kinds[.category]?.updated == 1)  // Produce: the archive's name and position
    let categories = try kitchen.categories.all()
    #expect(categories.map(\.displayName).sorted() == ["Dairy", "Frozen", "Pantry", "Produce"])
    #expect(categories.first { $0.displayName == "Produce" }?.id == produce.id)
    // Relationships found by key land on the kitchen's own records.
    #expect(try kitchen.ingredients.find("spring onion")?.category == produce.id)
    let recipes = try kitchen.recipes.all()
    #expect(recipes.count == 2)
    let merged = try #require(recipes.first { $0.titleKey == "egg fried rice" })
    #expect(merged.id == rice.id)
    #expect(merged.displayName == "Egg Fried Rice")
    let details = try kitchen.recipes.details(rice.id.uuidString)
    #expect(details.lines.count == 3)
    #expect(summary.kinds[.recipeIngredient]?.removed == 1)
    #expect(try kitchen.meals.meal(date: "2024-12-13", mealType: "dinner")?.recipe == rice.id)
    #expect(try kitchen.duplicates().isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func aSecondImportOfTheSameFileChangesNothing(_ backend: TestBackend) throws {
    let document = try KitchenArchive.decode(try Self.exported(try Self.richKitchen(backend)))
    let kitchen = try Self.emptyKitchen(backend)
    _ = try kitchen.categories.getOrCreate("produce")
    _ = try kitchen.importKitchen(document)
    let rows = try kitchen.store.dump(), log = try kitchen.store.changeLog()
    let again = try kitchen.importKitchen(document)
    #expect(again.changedNothing)
    #expect(again.total.unchanged == document.recordCount)
    #expect(try kitchen.store.dump() == rows)
    #expect(try kitchen.store.changeLog() == log)
    // Into the kitchen it came from, too.
    let source = try Self.richKitchen(backend)
    #expect(try source.importKitchen(document).changedNothing)
  }

  @Test func aDryRunCountsAndWritesNothing() throws {
    let document = try KitchenArchive.decode(try Self.exported(try Self.richKitchen(.memory)))
    let kitchen = try Self.emptyKitchen(.memory)
    let summary = try kitchen.importKitchen(document, dryRun: true)
    #expect(summary.dryRun && summary.total.created == document.recordCount)
    #expect(try kitchen.store.dump().isEmpty)
  }
}
