import Model
import Persistence
import Repositories
import Seed
import TestSupport
import Testing

@Suite("seed defaults creates the 7 grocery categories once")
struct DefaultCategoriesTests {
  @Test(arguments: TestBackend.allCases)
  func defaultsCreatesTheSevenCategoriesInShopOrder(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let report = try Seed.defaults(into: library)

    let categories = try library.categories.all()
    #expect(categories.map(\.displayName) == ["Produce", "Dairy", "Meat & Seafood", "Bakery", "Pantry", "Frozen", "Household"])
    #expect(categories.map(\.sortOrder) == [0, 1, 2, 3, 4, 5, 6])
    #expect(categories.map(\.normalizedName) == ["produce", "dairy", "meat & seafood", "bakery", "pantry", "frozen", "household"])
    #expect(try library.counts().filter { $0.value > 0 } == [.category: 7])
    #expect(report[.category] == SeedReport.Tally(created: 7, alreadyPresent: 0))
    #expect(report.tallies.keys.sorted() == [.category])
    #expect(report.description == "seeded 7 categories (7 new)")
  }

  @Test(arguments: TestBackend.allCases)
  func seedingDefaultsTwiceCreatesNothingTheSecondTime(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.defaults(into: library)
    let dump = try library.store.dump()
    let log = try library.store.changeLog()
    #expect(dump.count == 7)
    #expect(log.filter { $0.operation == .insert }.map(\.kind) == Array(repeating: .category, count: 7))
    #expect(!log.contains { $0.operation == .delete })

    let again = try Seed.defaults(into: library)
    #expect(try library.store.dump() == dump)
    #expect(try library.store.changeLog() == log)
    #expect(again[.category] == SeedReport.Tally(created: 0, alreadyPresent: 7))
    #expect(again.createdCount == 0)
    #expect(again.description == "seeded 7 categories (0 new)")
  }

  @Test(arguments: TestBackend.allCases)
  func aCategoryTheUserAlreadyHasKeepsItsSpellingAndOrder(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let mine = try library.categories.getOrCreate("  FROZEN  ", sortOrder: 42)
    let report = try Seed.defaults(into: library)

    #expect(report[.category] == SeedReport.Tally(created: 6, alreadyPresent: 1))
    let frozen = try #require(try library.categories.find("Frozen"))
    #expect(frozen.id == mine.id)
    #expect(frozen.displayName == "FROZEN")
    #expect(frozen.sortOrder == 42)
    #expect(
      try library.categories.all().map(\.displayName) == ["Produce", "Dairy", "Meat & Seafood", "Bakery", "Pantry", "Household", "FROZEN"])
  }
}
