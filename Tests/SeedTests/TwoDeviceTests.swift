import Foundation
import Model
import Repositories
import Seed
import TestSupport
import Testing

/// Two devices that seed offline must create the same records, so that after sync there
/// is exactly one of each: same ids, same fields; only timestamps may differ.
@Suite("Two devices seeding independently create the same records")
struct TwoDeviceTests {
  static let backendPairs: [(TestBackend, TestBackend)] = [(.memory, .sqlite), (.sqlite, .memory), (.sqlite, .sqlite)]

  @Test(arguments: backendPairs)
  func twoDevicesSeedingTheSampleHoldTheSameIDsForEveryKind(_ first: TestBackend, _ second: TestBackend) throws {
    let phone = try makeLibrary(first, now: Fixtures.epoch, ownerID: "phone")
    let laptop = try makeLibrary(second, now: Fixtures.epoch.addingTimeInterval(86_400 * 3), ownerID: "laptop")
    _ = try Seed.sample(into: phone)
    // The laptop seeds in two steps, on another day: identity must not depend on either.
    _ = try Seed.defaults(into: laptop)
    _ = try Seed.sample(into: laptop)

    let phoneIDs = try phone.store.idsByKind()
    let laptopIDs = try laptop.store.idsByKind()
    #expect(phoneIDs == laptopIDs)
    #expect(Set(phoneIDs.keys) == [.category, .book, .ingredientTemplate, .tag, .recipe, .recipeIngredient])
    #expect(
      phoneIDs.mapValues(\.count) == [
        .category: 7, .book: 3, .ingredientTemplate: 56, .tag: 6, .recipe: 8, .recipeIngredient: 87,
      ])

    // Field for field the same, apart from when each device last used a template.
    let laptopRecords = Dictionary(uniqueKeysWithValues: try laptop.store.dump().map { ($0.id, $0) })
    for record in try phone.store.dump() {
      let other = try #require(laptopRecords[record.id])
      #expect(record.changedFields(comparedTo: other).filter { $0 != "lastUsed" } == [], "\(record.kind) \(record.id)")
      #expect(record.meta.createdAt != other.meta.createdAt)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func seededIDsAreTheNameBasedIDsOfTheirKeys(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.sample(into: library)
    let produce = try #require(try library.categories.find("Produce"))
    #expect(produce.id == DeterministicID.make(kind: .category, semanticKey: "produce"))
    let wok = try #require(try library.books.find("The Wok"))
    #expect(wok.id == DeterministicID.make(kind: .book, semanticKey: "the wok|j. kenji lopez-alt"))
    let onion = try #require(try library.ingredients.find("spring onion"))
    #expect(onion.id == DeterministicID.make(kind: .ingredientTemplate, semanticKey: "spring onion"))
    let pasta = try #require(try library.recipes.find("Classic Tomato Pasta"))
    #expect(pasta.id == DeterministicID.make(kind: .recipe, semanticKey: "seed:sample:classic-tomato-pasta"))
    let lines = try library.recipes.details(pasta.id.uuidString).lines
    #expect(lines.first?.ingredient.id == DeterministicID.uuidV5(namespace: pasta.id, name: "line:0"))
  }

  @Test(arguments: TestBackend.allCases)
  func aDeviceWithItsOwnRecipeOfASampleTitleKeepsItAndGetsTheRest(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    guard case .created(let mine) = try library.recipes.create(RecipeDraft(name: "caesar salad!", ingredients: ["1 head romaine lettuce"]))
    else {
      Issue.record("the user's recipe was not created")
      return
    }
    let report = try Seed.sample(into: library)

    #expect(report[.recipe] == SeedReport.Tally(created: 7, alreadyPresent: 1))
    #expect(try library.counts()[.recipe] == 8)
    #expect(try library.recipes.find("Caesar Salad")?.id == mine.id)
    #expect(try library.recipes.details("Caesar Salad").lines.count == 1)
    #expect(try library.recipes.duplicates().isEmpty)
    // Its template was the user's first and is now the sample's, filed and typed.
    let romaine = try #require(try library.ingredients.find("romaine lettuce"))
    #expect(romaine.ingredientKind == .vegetable)
    #expect(try library.categories.find(romaine.category?.uuidString ?? "")?.displayName == "Produce")
    #expect(report[.ingredientTemplate] == SeedReport.Tally(created: 55, alreadyPresent: 1))
  }
}
