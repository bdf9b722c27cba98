import Foundation
import Model
import Persistence
import TestSupport
import Testing

/// Filtered, sorted, limited listings behave the same on every backend.
@Suite("Store queries")
struct StoreQueryTests {
  struct Library {
    let store: any Store
    let italian: Model.Tag
    let soup: Record
    let pasta: Record
    let salad: Record
    let stew: Record
  }

  func library(_ backend: TestBackend) throws -> Library {
    let store = try backend.makeStore()
    let italian = Model.Tag(meta: Fixtures.meta(), displayName: "Italian", normalizedName: "italian")
    let soup = Fixtures.recipe("Bean Soup", cuisine: "Soup", ingredients: ["1 can BLACK beans", "onion"], keywords: ["Quick"])
    let pasta = Fixtures.recipe("Tomato Pasta", cuisine: "Italian", ingredients: ["400 g spaghetti", "tomatoes"], tags: [italian.id])
    let salad = Fixtures.recipe("Caesar Salad", cuisine: "American", ingredients: ["romaine"], keywords: ["crunchy", "quick lunch"])
    let stew = Fixtures.recipe("bean stew", cuisine: nil, ingredients: [])
    try store.write { writer in
      try writer.insertRecord(italian.record)
      for record in [soup, pasta, salad, stew] { try writer.insertRecord(record) }
    }
    return Library(store: store, italian: italian, soup: soup, pasta: pasta, salad: salad, stew: stew)
  }

  func names(_ store: any Store, _ query: RecordQuery) throws -> [String] {
    try store.read { try $0.fetch(query) }.map { $0["displayName"].text ?? "?" }
  }

  @Test(arguments: TestBackend.allCases)
  func defaultOrderIsByDisplayNameBytes(_ backend: TestBackend) throws {
    let lib = try library(backend)
    #expect(try names(lib.store, RecordQuery(.recipe)) == ["Bean Soup", "Caesar Salad", "Tomato Pasta", "bean stew"])
  }

  @Test(arguments: TestBackend.allCases)
  func equalsFiltersOnAFieldAndNullMatchesAbsentValues(_ backend: TestBackend) throws {
    let lib = try library(backend)
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.equals("recipeCuisine", .text("Italian"))])) == ["Tomato Pasta"])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.equals("recipeCuisine", .null)])) == ["bean stew"])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.equals("recipeCuisine", .text("italian"))])) == [])
  }

  @Test(arguments: TestBackend.allCases)
  func containsIgnoresASCIICaseInTextAndListFields(_ backend: TestBackend) throws {
    let lib = try library(backend)
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.contains("displayName", "BEAN")])) == ["Bean Soup", "bean stew"])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.contains("recipeIngredient", "black bean")])) == ["Bean Soup"])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.contains("keywords", "quick")])) == ["Bean Soup", "Caesar Salad"])
    // JSON punctuation of the stored list never matches.
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.contains("recipeIngredient", "\",\"")])) == [])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.contains("usageCount", "0")])) == [])
  }

  @Test(arguments: TestBackend.allCases)
  func anyOfCombinesFiltersWithOr(_ backend: TestBackend) throws {
    let lib = try library(backend)
    let search = RecordFilter.anyOf([
      .contains("displayName", "quick"), .contains("keywords", "quick"), .contains("recipeIngredient", "tomato"),
    ])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [search])) == ["Bean Soup", "Caesar Salad", "Tomato Pasta"])
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.anyOf([])])) == [])
  }

  @Test(arguments: TestBackend.allCases)
  func referencesMatchesToOneAndToManyRelationships(_ backend: TestBackend) throws {
    let lib = try library(backend)
    #expect(try names(lib.store, RecordQuery(.recipe, filters: [.references("tags", lib.italian.id)])) == ["Tomato Pasta"])
    let ingredient = RecipeIngredient(meta: Fixtures.meta(), recipe: lib.soup.id, template: UUID(), rawLine: "onion", sortOrder: 0)
    try lib.store.write { try $0.insertRecord(ingredient.record) }
    let owned = try lib.store.read { try $0.fetch(RecordQuery(.recipeIngredient, filters: [.references("recipe", lib.soup.id)])) }
    #expect(owned.map(\.id) == [ingredient.id])
  }

  @Test(arguments: TestBackend.allCases)
  func sortLimitOffsetAndCountCompose(_ backend: TestBackend) throws {
    let lib = try library(backend)
    let descending = RecordQuery(.recipe, sort: [SortKey("recipeCuisine", ascending: false)])
    #expect(try names(lib.store, descending) == ["Bean Soup", "Tomato Pasta", "Caesar Salad", "bean stew"])
    var page = RecordQuery(.recipe, sort: [SortKey("recipeCuisine")], limit: 2, offset: 1)
    #expect(try names(lib.store, page) == ["Caesar Salad", "Tomato Pasta"])
    page.offset = 10
    #expect(try names(lib.store, page) == [])
    #expect(try lib.store.read { try $0.count(RecordQuery(.recipe, limit: 1)) } == 4)
    #expect(try names(lib.store, RecordQuery(.recipe, limit: 0)) == [])
  }

  @Test(arguments: TestBackend.allCases)
  func deletedRecordsAppearOnlyWhenAskedFor(_ backend: TestBackend) throws {
    let lib = try library(backend)
    try lib.store.write { try $0.tombstoneRecord(.recipe, id: lib.stew.id, at: Fixtures.epoch) }
    #expect(try lib.store.read { try $0.count(RecordQuery(.recipe)) } == 3)
    #expect(try lib.store.read { try $0.count(RecordQuery(.recipe, includeDeleted: true)) } == 4)
  }

  @Test(arguments: TestBackend.allCases)
  func queriesNamingUnknownFieldsOrMistypedValuesAreRejected(_ backend: TestBackend) throws {
    let lib = try library(backend)
    #expect(throws: StoreError.unknownField(kind: .recipe, field: "title")) {
      try lib.store.read { try $0.fetch(RecordQuery(.recipe, filters: [.equals("title", .text("x"))])) }
    }
    #expect(throws: StoreError.unknownField(kind: .recipe, field: "rating")) {
      try lib.store.read { try $0.count(RecordQuery(.recipe, sort: [SortKey("rating")])) }
    }
    do {
      _ = try lib.store.read { try $0.fetch(RecordQuery(.recipe, filters: [.equals("usageCount", .text("0"))])) }
      Issue.record("a text value was compared with an integer field")
    } catch let StoreError.invalidQuery(kind, field, _) {
      #expect(kind == .recipe && field == "usageCount")
    }
  }

  /// Where `category add` puts a new category: past the largest sort order of the live
  /// ones, tombstones ignored, on every backend; a field that is not an integer is refused.
  @Test(arguments: TestBackend.allCases)
  func largestIntegerReadsLiveRecordsOnly(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    #expect(try store.read { try $0.largestInteger(.category, field: "sortOrder") } == nil)
    var gone = Fixtures.category("Gone", sortOrder: 900)
    gone.meta.deletedAt = Fixtures.epoch
    try store.write { writer in
      for record in [
        Fixtures.category("Produce", sortOrder: 20), Fixtures.category("Dairy", sortOrder: 300), gone,
        Fixtures.category("Bakery", sortOrder: 300), Fixtures.recipe("Soup"),
      ] {
        try writer.insertRecord(record)
      }
    }
    #expect(try store.read { try $0.largestInteger(.category, field: "sortOrder") } == 300)
    // A live record without a value (an optional field left empty) holds none.
    #expect(try store.read { try $0.largestInteger(.recipe, field: "sourcePageNumber") } == nil)

    #expect(throws: StoreError.invalidQuery(kind: .category, field: "displayName", reason: "is not an integer field")) {
      try store.read { try $0.largestInteger(.category, field: "displayName") }
    }
    #expect(throws: StoreError.unknownField(kind: .category, field: "aisle")) {
      try store.read { try $0.largestInteger(.category, field: "aisle") }
    }
  }
}
