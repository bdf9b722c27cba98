import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@Suite("Unique kinds: get-or-create")
struct UniqueKindTests {
  @Test(arguments: TestBackend.allCases)
  func spellingsOfOneNameGiveOneCategory(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let first = try library.categories.getOrCreate("Produce")
    let second = try library.categories.getOrCreate("produce")
    let third = try library.categories.getOrCreate("  PRODUCE ")
    #expect(first.id == second.id && second.id == third.id)
    #expect(first.displayName == "Produce")
    #expect(try library.categories.all().count == 1)
    #expect(try library.categories.find("pRoDuCe")?.id == first.id)
  }

  @Test func twoDevicesCreatingProduceGetTheSameID() throws {
    let deviceA = try makeLibrary(.sqlite)
    let deviceB = try makeLibrary(.memory)
    let a = try deviceA.categories.getOrCreate("Produce")
    let b = try deviceB.categories.getOrCreate("PRODUCE")
    #expect(a.id == b.id)
    #expect(a.id == DeterministicID.make(kind: .category, semanticKey: "produce"))
    #expect(try deviceA.tags.getOrCreate("Weeknight").id == deviceB.tags.getOrCreate("weeknight").id)
    #expect(try deviceA.ingredients.getOrCreate("Tomatoes").id == deviceB.ingredients.getOrCreate("tomato").id)
    #expect(
      try deviceA.books.getOrCreate(title: "The Wok", author: "J. Kenji López-Alt").id
        == deviceB.books.getOrCreate(title: "the wok", author: "J. Kenji Lopez-Alt").id)
  }

  @Test(arguments: TestBackend.allCases)
  func tenThousandGetOrCreateCallsForAHundredNamesLeaveAHundredRecords(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let names = (0..<100).map { "Category \($0)" }
    var ids: [String: UUID] = [:]
    try library.transaction { tx in
      for call in 0..<10_000 {
        let name = names[(call * 37) % names.count]
        let spelled = call % 3 == 0 ? name.uppercased() : (call % 3 == 1 ? " \(name.lowercased())  " : name)
        let category = try tx.categories.getOrCreate(spelled)
        if let known = ids[name] { #expect(known == category.id) } else { ids[name] = category.id }
      }
    }
    #expect(try library.counts()[.category] == 100)
    #expect(try library.store.changeLog().count == 100)
  }

  @Test(arguments: TestBackend.allCases)
  func pluralsAndAliasesFindTheirTemplate(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let tomato = try library.ingredients.getOrCreate("tomato", kind: .vegetable, category: "Produce")
    #expect(try library.ingredients.getOrCreate("Tomatoes").id == tomato.id)
    #expect(try library.ingredients.find("TOMATOES")?.id == tomato.id)
    let onion = try library.ingredients.getOrCreate("spring onion", aliases: ["scallion"])
    #expect(try library.ingredients.find("Scallions")?.id == onion.id)
    #expect(try library.ingredients.find("green onions")?.id == onion.id)
    let chili = try library.ingredients.getOrCreate("chili", aliases: ["red pepper flakes"])
    #expect(chili.aliases == ["red pepper flake"])
    #expect(try library.ingredients.find("red pepper flakes")?.id == chili.id)
    #expect(try library.ingredients.getOrCreate("Red Pepper Flakes").id == chili.id)
    #expect(try library.ingredients.all().count == 3)
    let produce = try #require(try library.categories.find("produce"))
    #expect(tomato.category == produce.id)
    #expect(tomato.ingredientKind == .vegetable)
  }

  @Test(arguments: TestBackend.allCases)
  func anAliasNamingAnotherTemplateIsRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let basil = try library.ingredients.getOrCreate("basil")
    _ = try library.ingredients.getOrCreate("thyme")
    let error = try expectUnchanged(library) { _ = try library.ingredients.addAlias("Basil", to: "thyme") }
    #expect(error == .aliasCollision(alias: "Basil", existingName: "basil", existingID: basil.id))
  }

  @Test(arguments: TestBackend.allCases)
  func renamingOntoAnExistingNameNamesTheExistingRecord(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let produce = try library.categories.getOrCreate("Produce")
    _ = try library.categories.getOrCreate("Dairy")
    let error = try expectUnchanged(library) { _ = try library.categories.rename("Dairy", to: "produce") }
    #expect(error == .renameCollision(.category, newName: "produce", existingName: "Produce", existingID: produce.id))
    #expect(error?.description.contains("'Produce' already exists") == true)
    let renamed = try library.categories.rename("Dairy", to: "Dairy & Eggs")
    #expect(renamed.normalizedName == "dairy & eggs")
    #expect(try library.categories.find("dairy") == nil)
    // Changing only the spelling of one's own name is not a collision.
    #expect(try library.categories.rename("produce", to: "PRODUCE").displayName == "PRODUCE")
  }

  @Test(arguments: TestBackend.allCases)
  func recreatingADeletedNameGetsTheNextDeterministicID(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let first = try library.categories.getOrCreate("Produce")
    _ = try library.categories.delete("Produce")
    let second = try library.categories.getOrCreate("Produce")
    #expect(second.id != first.id)
    #expect(second.id == DeterministicID.make(kind: .category, semanticKey: "produce#2"))
    #expect(try library.categories.all().map(\.id) == [second.id])
    // A name whose first id a renamed record still holds, inside one transaction too;
    // the refused insert leaves no change-log entry and no live record behind.
    _ = try library.categories.rename("Produce", to: "Greens")
    let third = try library.transaction { try $0.categories.getOrCreate("produce") }
    #expect(third.id == DeterministicID.make(kind: .category, semanticKey: "produce#3"))
    #expect(try library.counts()[.category] == 2)
    let inserts = try library.store.read { try $0.changes(after: 0, limit: 100) }.filter { $0.operation == .insert }
    #expect(inserts.map(\.id) == [first.id, second.id, third.id])
  }

  /// A new template is created with the fields given in one insert (sync stamps one
  /// write); an existing one given other fields is updated.
  @Test(arguments: TestBackend.allCases)
  func aNewTemplateIsCreatedWithItsGivenFieldsInOneWrite(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let egg = try library.ingredients.getOrCreate("egg", kind: .protein, isStaple: true, gramsPerCup: 243)
    #expect(egg.ingredientKind == .protein && egg.isStaple && egg.gramsPerCup == 243)
    var log = try library.store.read { try $0.changes(after: 0, limit: 100) }
    #expect(log.map(\.operation) == [.insert])
    #expect(Set(["ingredientKind", "isStaple", "gramsPerCup"]).isSubset(of: log[0].fields))
    let again = try library.ingredients.getOrCreate("eggs", kind: .dairy)
    #expect(again.id == egg.id && again.ingredientKind == .dairy && again.isStaple)
    log = try library.store.read { try $0.changes(after: 0, limit: 100) }
    #expect(log.map(\.operation) == [.insert, .update])
    #expect(log[1].fields == ["ingredientKind"])
  }

  /// A template a recipe line creates is inserted already counted as used; a later recipe
  /// that uses it counts it again with an update.
  @Test(arguments: TestBackend.allCases)
  func aTemplateARecipeCreatesIsInsertedCountedAsUsed(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["2 leeks", "1 leek, sliced"]))
    var leek = try #require(try library.ingredients.find("leek"))
    #expect(leek.usageCount == 2 && leek.lastUsed != nil)
    let templateChanges = { try library.store.read { try $0.changes(after: 0, limit: 100) }.filter { $0.kind == .ingredientTemplate } }
    // The first line inserts it counted once; the second counts it again.
    #expect(try templateChanges().map(\.operation) == [.insert, .update])
    #expect(try Set(["usageCount", "lastUsed"]).isSubset(of: templateChanges()[0].fields))
    _ = try library.recipes.create(RecipeDraft(name: "Leek tart", ingredients: ["3 leeks"]))
    leek = try #require(try library.ingredients.find("leek"))
    #expect(leek.usageCount == 3)
    #expect(try templateChanges().map(\.operation) == [.insert, .update, .update])
  }

  /// A category and aliases given at creation are part of the template's one insert (the
  /// category, created when missing, is inserted first); an alias another template holds
  /// is refused before anything is written.
  @Test(arguments: TestBackend.allCases)
  func aNewTemplatesCategoryAndAliasesArePartOfItsInsert(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let egg = try library.ingredients.getOrCreate("egg", category: "Dairy", aliases: ["hen egg", "Hen Egg"])
    let dairy = try #require(try library.categories.find("Dairy"))
    #expect(egg.category == dairy.id && egg.aliases == ["hen egg"])
    let log = try library.store.read { try $0.changes(after: 0, limit: 100) }
    #expect(log.map(\.kind) == [.category, .ingredientTemplate])
    #expect(log.map(\.operation) == [.insert, .insert])
    #expect(Set(["category", "aliases"]).isSubset(of: log[1].fields))
    #expect(throws: RepositoryError.self) {
      try library.ingredients.getOrCreate("quail egg", category: "Eggs", aliases: ["hen egg"])
    }
    #expect(try library.store.read { try $0.changes(after: 0, limit: 100) }.count == 2)
    #expect(try library.ingredients.find("quail egg") == nil && library.categories.find("Eggs") == nil)
  }

  @Test(arguments: TestBackend.allCases)
  func deletingACategoryLeavesItsIngredientsWithoutOne(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.ingredients.getOrCreate("apple", category: "Produce")
    _ = try library.categories.delete("Produce")
    #expect(try library.ingredients.find("apple")?.category == nil)
  }

  @Test(arguments: TestBackend.allCases)
  func deletingATagRemovesItFromRecipes(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.recipes.create(RecipeDraft(name: "Soup", tags: ["Quick", "Vegan"]))
    _ = try library.tags.delete("quick")
    let details = try library.recipes.details("Soup")
    #expect(details.tags.map(\.displayName) == ["Vegan"])
    #expect(details.recipe.tags.count == 1)
  }

  @Test(arguments: TestBackend.allCases)
  func booksAreUniqueByTitleAndAuthor(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let wok = try library.books.getOrCreate(title: "The Wok", author: "J. Kenji López-Alt")
    #expect(try library.books.getOrCreate(title: " the  WOK ", author: "j. kenji lopez-alt").id == wok.id)
    let other = try library.books.getOrCreate(title: "The Wok", author: "Someone Else")
    #expect(other.id != wok.id)
    #expect(try library.books.all().count == 2)
    #expect(throws: RepositoryError.ambiguous(.book, "The Wok", ids: [wok.id, other.id].sorted(by: UUID.keeperOrder))) {
      _ = try library.books.find("The Wok")
    }
    #expect(try library.books.find("The Wok", author: "Someone Else")?.id == other.id)
  }

  @Test(arguments: TestBackend.allCases)
  func aSortOrderIsSetWhenTheCategoryIsCreatedAndNotChangedForAnExistingOne(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    #expect(try library.categories.getOrCreate("Bakery", sortOrder: 3).sortOrder == 3)
    #expect(try library.categories.getOrCreate("bakery", sortOrder: 9).sortOrder == 3)
    #expect(try library.store.changeLog().map(\.operation) == [.insert])
  }

  @Test(arguments: TestBackend.allCases)
  func aNewCategoryWithoutASortOrderGoesAfterTheLast(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    #expect(try library.categories.getOrCreate("Produce").sortOrder == 0)
    #expect(try library.categories.getOrCreate("Frozen", sortOrder: 5).sortOrder == 5)
    #expect(try library.categories.getOrCreate("Spices").sortOrder == 6)
    #expect(try library.categories.getOrCreate("produce").sortOrder == 0)
    let inOneTransaction = try library.transaction { tx in
      [try tx.categories.getOrCreate("Snacks").sortOrder, try tx.categories.getOrCreate("Drinks").sortOrder]
    }
    #expect(inOneTransaction == [7, 8])
    #expect(try library.categories.all().map(\.displayName) == ["Produce", "Frozen", "Spices", "Snacks", "Drinks"])
  }
}
