import Foundation
import Model
import Repositories
import Seed
import TestSupport
import Testing

/// A seed is one transaction: when it fails, nothing it did is kept; and it never lets
/// the user's own data make it fail.
@Suite("A failed seed leaves nothing behind")
struct AtomicSeedTests {
  /// How many records `Seed.sample` inserts into a store that already holds the defaults.
  static func sampleInserts(_ backend: TestBackend) throws -> Int {
    let library = try makeLibrary(backend)
    _ = try Seed.defaults(into: library)
    let before = try library.store.insertCount()
    _ = try Seed.sample(into: library)
    return try library.store.insertCount() - before
  }

  @Test(arguments: TestBackend.allCases)
  func aStoreFailureMidSampleLeavesTheStoreAsItWas(_ backend: TestBackend) throws {
    let inserts = try Self.sampleInserts(backend)
    #expect(inserts == 3 + 56 + 6 + 8 + 87)
    for failing in [1, 2, inserts / 2, inserts] {
      let base = try backend.makeStore()
      let healthy = Library(store: base, now: { Fixtures.epoch })
      _ = try Seed.defaults(into: healthy)
      _ = try healthy.categories.getOrCreate("Spices")
      let dump = try base.dump()
      let log = try base.changeLog()

      let failingLibrary = Library(store: FailingStore(wrapping: base, failingInsert: failing), now: { Fixtures.epoch })
      #expect(throws: SimulatedStoreFailure(insert: failing)) { _ = try Seed.sample(into: failingLibrary) }
      #expect(try base.dump() == dump, "failing insert \(failing)")
      #expect(try base.changeLog() == log, "failing insert \(failing)")
      #expect(try healthy.counts().filter { $0.value > 0 } == [.category: 8])

      // Once the store works again, the same seed goes through in full.
      let report = try Seed.sample(into: healthy)
      #expect(report[.recipe] == SeedReport.Tally(created: 8, alreadyPresent: 0))
      #expect(try healthy.counts()[.recipeIngredient] == 87)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func aStoreFailureMidDefaultsCreatesNoCategory(_ backend: TestBackend) throws {
    let base = try backend.makeStore()
    let library = Library(store: FailingStore(wrapping: base, failingInsert: 5), now: { Fixtures.epoch })
    #expect(throws: SimulatedStoreFailure(insert: 5)) { _ = try Seed.defaults(into: library) }
    #expect(try base.dump().isEmpty)
    #expect(try base.changeLog().isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func anAliasTheUserGaveAnotherIngredientIsLeftOutNotFatal(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let mine = try library.ingredients.getOrCreate("Aleppo pepper", aliases: ["chili flakes"])
    let report = try Seed.sample(into: library)

    #expect(report.skippedAliases == ["chili flakes → Aleppo pepper"])
    #expect(report.description.hasSuffix("; aliases left out: chili flakes → Aleppo pepper"))
    #expect(try library.ingredients.find("chili flakes")?.id == mine.id)
    let flakes = try #require(try library.ingredients.find("Red pepper flakes"))
    #expect(flakes.aliases == ["crushed red pepper"])
    #expect(try library.counts()[.ingredientTemplate] == 57)

    // Seeding again changes nothing and reports the same.
    let log = try library.store.changeLog()
    let again = try Seed.sample(into: library)
    #expect(again.skippedAliases == ["chili flakes → Aleppo pepper"])
    #expect(try library.store.changeLog() == log)
  }

  @Test(arguments: TestBackend.allCases)
  func aTemplateTheUserFiledKeepsItsCategoryAndKind(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let mine = try library.ingredients.getOrCreate("eggs", kind: .dairy, category: "Chilled")
    _ = try Seed.sample(into: library)

    let eggs = try #require(try library.ingredients.find("Eggs"))
    #expect(eggs.id == mine.id)
    #expect(eggs.displayName == "eggs")
    #expect(eggs.ingredientKind == .dairy)
    #expect(eggs.category == mine.category)
    #expect(try library.categories.find("Chilled")?.id == mine.category)
  }
}
