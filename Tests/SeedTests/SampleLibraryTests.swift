import Foundation
import Model
import Repositories
import Seed
import TestSupport
import Testing

@Suite("seed sample creates the sample library")
struct SampleLibraryTests {
  /// What the issue asks for, written out independently of the sample data.
  struct Expected {
    let name: String
    let cuisine: String
    let source: SourceType
    let book: String?
    let page: Int64?
    let url: String?
  }

  static let expected: [Expected] = [
    Expected(name: "Classic Tomato Pasta", cuisine: "Italian", source: .book, book: "Salt, Fat, Acid, Heat", page: 234, url: nil),
    Expected(name: "Chicken Stir-Fry", cuisine: "Asian", source: .book, book: "The Wok", page: 112, url: nil),
    Expected(
      name: "Roasted Cauliflower with Tahini", cuisine: "Mediterranean", source: .book, book: "Ottolenghi Simple", page: 78, url: nil),
    Expected(name: "Quick Black Bean Soup", cuisine: "Soup", source: .url, book: nil, page: nil, url: "https://example.com/bean-soup"),
    Expected(name: "Egg Fried Rice", cuisine: "Asian", source: .book, book: "The Wok", page: 89, url: nil),
    Expected(name: "Hummus from Scratch", cuisine: "Mediterranean", source: .manual, book: nil, page: nil, url: nil),
    Expected(
      name: "Duck Breast with Cherry Sauce", cuisine: "French", source: .url, book: nil, page: nil, url: "https://example.com/duck-cherry"),
    Expected(name: "Caesar Salad", cuisine: "American", source: .manual, book: nil, page: nil, url: nil),
  ]

  @Test(arguments: TestBackend.allCases)
  func sampleCreatesBooksRecipesCategoriesAndTemplates(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let report = try Seed.sample(into: library)

    let counts = try library.counts()
    #expect(counts[.category] == 7)
    #expect(counts[.book] == 3)
    #expect(counts[.recipe] == 8)
    #expect(counts[.ingredientTemplate] == 56)
    #expect(counts[.recipeIngredient] == 87)
    #expect(counts[.tag] == 6)
    #expect(counts[.plannedMeal] == 0 && counts[.weeklyList] == 0)
    #expect(
      report.description == "seeded 7 categories (7 new), 3 books (3 new), 56 ingredients (56 new), 6 tags (6 new), 8 recipes (8 new)")
    #expect(report.createdCount == 7 + 3 + 56 + 6 + 8)
    #expect(report.skippedAliases.isEmpty)

    let books = try library.books.all()
    #expect(
      Set(books.map { "\($0.title) by \($0.author ?? "?")" }) == [
        "Salt, Fat, Acid, Heat by Samin Nosrat", "The Wok by J. Kenji López-Alt", "Ottolenghi Simple by Yotam Ottolenghi",
      ])
    #expect(Set(try library.tags.all().map(\.displayName)) == ["Vegetarian", "Weeknight", "Quick", "Vegan", "Make-ahead", "Date night"])
  }

  @Test(arguments: TestBackend.allCases)
  func eachRecipeHasItsSourceCuisineAndTimes(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.sample(into: library)

    #expect(Set(try library.recipes.all().map(\.displayName)) == Set(Self.expected.map(\.name)))
    for expected in Self.expected {
      let details = try library.recipes.details(expected.name)
      let recipe = details.recipe
      #expect(recipe.recipeCuisine == expected.cuisine, "\(expected.name)")
      #expect(recipe.sourceType == expected.source, "\(expected.name)")
      #expect(details.book?.title == expected.book, "\(expected.name)")
      #expect(recipe.sourcePageNumber == expected.page, "\(expected.name)")
      #expect(recipe.sourceURL == expected.url, "\(expected.name)")
      #expect(recipe.prepTime?.hasPrefix("PT") == true && recipe.cookTime?.hasPrefix("PT") == true, "\(expected.name)")
      #expect((6...12).contains(details.lines.count), "\(expected.name)")
      #expect(details.lines.map(\.ingredient.sortOrder) == (0..<Int64(details.lines.count)).map { $0 })
    }
    let pasta = try #require(try library.recipes.find("classic tomato pasta"))
    #expect(pasta.prepTime == "PT10M")
    #expect(pasta.cookTime == "PT35M")
    #expect(pasta.totalTime == "PT45M")
    #expect(pasta.recipeYield == "4 servings")
    #expect(pasta.keywords == ["pasta", "tomato", "weeknight"])
    #expect(pasta.recipeIngredient.first == "12 oz (340 g) spaghetti")
    #expect(pasta.normalizedIngredients.prefix(3) == ["spaghetti", "extra-virgin olive oil", "onion"])
    #expect(try library.recipes.all(cuisine: "asian").map(\.displayName) == ["Chicken Stir-Fry", "Egg Fried Rice"])
  }

  @Test(arguments: TestBackend.allCases)
  func everyRecipeLineResolvesToADeclaredTemplateInItsCategory(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.sample(into: library)

    var declared: [UUID: SampleTemplate] = [:]
    for template in SampleLibrary.templates {
      let stored = try #require(try library.ingredients.find(template.name), "\(template.name)")
      declared[stored.id] = template
      #expect(stored.displayName == template.name)
      #expect(stored.ingredientKind == template.kind, "\(template.name)")
      #expect(stored.isStaple == template.isStaple, "\(template.name)")
      let category = try #require(stored.category.flatMap { try library.categories.find($0.uuidString) })
      #expect(category.displayName == template.category, "\(template.name)")
    }
    #expect(declared.count == 56)
    #expect(Set(try library.ingredients.all().map(\.id)) == Set(declared.keys))

    var usage: [UUID: Int64] = [:]
    for recipe in SampleLibrary.recipes {
      let details = try library.recipes.details(recipe.draft.name)
      #expect(details.lines.map(\.ingredient.rawLine) == recipe.draft.ingredients)
      for line in details.lines {
        let template = try #require(line.template, "\(line.ingredient.rawLine)")
        #expect(declared[template.id] != nil, "'\(line.ingredient.rawLine)' went to \(template.displayName)")
        usage[template.id, default: 0] += 1
      }
    }
    for (id, uses) in usage {
      #expect(try library.ingredients.find(id.uuidString)?.usageCount == uses)
    }
    #expect(usage.count == 56)

    let line = try #require(
      try library.recipes.details("Duck Breast with Cherry Sauce").lines.first { $0.template?.displayName == "Cherries" })
    #expect(line.ingredient.quantity == 1.5)
    #expect(line.ingredient.unit == "cup")
    #expect(line.ingredient.notes == "225 g; pitted; fresh or frozen")
  }

  @Test(arguments: TestBackend.allCases)
  func aliasesFindTheirTemplates(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.sample(into: library)

    let expected: [String: String] = [
      "scallions": "Spring onion", "Green Onions": "Spring onion", "garbanzo beans": "Chickpeas",
      "Parmigiano-Reggiano": "Parmesan", "chili flakes": "Red pepper flakes", "crushed red pepper": "Red pepper flakes",
      "vegetable stock": "Vegetable broth", "chicken broth": "Chicken stock", "magret": "Duck breast",
      "capsicum": "Bell pepper", "Italian parsley": "Flat-leaf parsley", "pimentón": "Smoked paprika",
      "extra-virgin olive oil": "Olive oil", "cos lettuce": "Romaine lettuce",
    ]
    for (alias, name) in expected {
      #expect(try library.ingredients.find(alias)?.displayName == name, "\(alias)")
    }
    let parmesan = try #require(try library.ingredients.find("Parmesan"))
    #expect(parmesan.aliases == ["parmigiano-reggiano"])
    // Aliases the built-in table already maps are not stored twice.
    #expect(try library.ingredients.find("spring onion")?.aliases == [])
    #expect(try library.ingredients.find("red pepper flakes")?.aliases == ["crushed red pepper", "chili flake"])
  }

  @Test(arguments: TestBackend.allCases)
  func seedingTheSampleTwiceCreatesNothingTheSecondTime(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.sample(into: library)
    let dump = try library.store.dump()
    let log = try library.store.changeLog()

    let again = try Seed.sample(into: library)
    #expect(try library.store.dump() == dump)
    #expect(try library.store.changeLog() == log)
    #expect(again.createdCount == 0)
    #expect(again[.recipe] == SeedReport.Tally(created: 0, alreadyPresent: 8))
    #expect(again[.ingredientTemplate] == SeedReport.Tally(created: 0, alreadyPresent: 56))
    #expect(again.description == "seeded 7 categories (0 new), 3 books (0 new), 56 ingredients (0 new), 8 recipes (0 new)")
    #expect(try Seed.defaults(into: library).createdCount == 0)
    #expect(try library.store.changeLog() == log)
  }

  @Test(arguments: TestBackend.allCases)
  func sampleAfterDefaultsOnlyAddsWhatIsMissing(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try Seed.defaults(into: library)
    let report = try Seed.sample(into: library)
    #expect(report[.category] == SeedReport.Tally(created: 0, alreadyPresent: 7))
    #expect(report[.recipe] == SeedReport.Tally(created: 8, alreadyPresent: 0))
    #expect(try library.counts()[.category] == 7)
  }
}
