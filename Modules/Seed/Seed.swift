import Model
public import Repositories

/// Default grocery categories and the sample library, created only through repositories.
///
/// Each seed runs in one transaction: it creates everything or, when anything fails,
/// nothing. Seeding is idempotent, on one device and across devices: every record it
/// creates gets a name-based id (unique kinds through get-or-create, recipes through a
/// stable `seedKey`), so seeding twice creates nothing the second time, and two devices
/// seeding offline create the same records, which sync then merges into one of each.
/// Records that are already present — seeded before or made by the user — are left as
/// they are (a sample template only fills in a kind or category the existing one lacks).
///
/// ```swift
/// let library = Library(store: store)
/// print(try Seed.defaults(into: library))  // "seeded 7 categories (7 new)"
/// print(try Seed.sample(into: library))    // "seeded 7 categories (0 new), 3 books (3 new), …"
/// ```
///
/// The sample data lives in ``SampleLibrary``; Docs/SEED.md explains how to change it.
public enum Seed {
  /// The default grocery categories, in shop-walk order; seeded with `sortOrder` 0…6.
  public static let defaultCategories: [String] = [
    "Produce", "Dairy", "Meat & Seafood", "Bakery", "Pantry", "Frozen", "Household",
  ]

  /// Creates the 7 ``defaultCategories`` that are missing, with sort orders 0…6.
  ///
  /// A category that already exists (under any spelling with the same key) keeps its
  /// name and sort order.
  /// - Returns: the categories created and already present.
  /// - Throws: any repository or store error; then nothing was written.
  public static func defaults(into library: Library) throws -> SeedReport {
    try library.transaction { library in
      var report = SeedReport()
      try seedCategories(into: library, report: &report)
      return report
    }
  }

  /// Creates the sample library: the default categories, 3 books, the ingredient
  /// templates of ``SampleLibrary/templates`` (with kind, category and aliases), and the
  /// 8 recipes of ``SampleLibrary/recipes`` with their ingredient lines and tags.
  ///
  /// Templates come first, so every recipe line resolves to a template that already has
  /// its category. A recipe whose title is already used by a live recipe is skipped. An
  /// alias that already names another ingredient is left out and listed in
  /// ``SeedReport/skippedAliases``.
  /// - Returns: what was created and what was already present, per kind.
  /// - Throws: any repository or store error; then nothing was written.
  public static func sample(into library: Library) throws -> SeedReport {
    try library.transaction { library in
      var report = SeedReport()
      try seedCategories(into: library, report: &report)
      try seedBooks(into: library, report: &report)
      try seedTemplates(into: library, report: &report)
      try seedRecipes(into: library, report: &report)
      return report
    }
  }

  // MARK: Steps

  private static func seedCategories(into library: Library, report: inout SeedReport) throws {
    for (order, name) in defaultCategories.enumerated() {
      let present = try library.categories.find(name) != nil
      if !present { _ = try library.categories.getOrCreate(name, sortOrder: Int64(order)) }
      report.record(.category, created: !present)
    }
  }

  private static func seedBooks(into library: Library, report: inout SeedReport) throws {
    for book in SampleLibrary.books {
      let present = try library.books.find(book.title, author: book.author) != nil
      if !present { _ = try library.books.getOrCreate(title: book.title, author: book.author) }
      report.record(.book, created: !present)
    }
  }

  private static func seedTemplates(into library: Library, report: inout SeedReport) throws {
    let ingredients = library.ingredients
    for template in SampleLibrary.templates {
      let existing = try ingredients.find(template.name)
      var aliases: [String] = []
      for alias in template.aliases {
        if let holder = try ingredients.find(alias), holder.id != existing?.id {
          report.skippedAliases.append("\(alias) → \(holder.displayName)")
        } else {
          aliases.append(alias)
        }
      }
      if let existing {
        // Keep what the user chose; fill in only what the template lacks.
        _ = try ingredients.getOrCreate(
          template.name, kind: existing.ingredientKind == .other ? template.kind : nil,
          category: existing.category == nil ? template.category : nil, aliases: aliases
        )
      } else {
        _ = try ingredients.getOrCreate(
          template.name, kind: template.kind, category: template.category, aliases: aliases,
          isStaple: template.isStaple
        )
      }
      report.record(.ingredientTemplate, created: existing == nil)
    }
  }

  private static func seedRecipes(into library: Library, report: inout SeedReport) throws {
    var tagsSeen: Set<String> = []
    for recipe in SampleLibrary.recipes {
      guard try !recipeExists(recipe.draft.name, in: library) else {
        report.record(.recipe, created: false)
        continue
      }
      for tag in recipe.draft.tags {
        guard let key = try Identity.key(for: tag, as: .tag), tagsSeen.insert(key).inserted else { continue }
        report.record(.tag, created: try library.tags.find(tag) == nil)
      }
      switch try library.recipes.create(recipe.draft, seedKey: recipe.seedKey) {
      case .created: report.record(.recipe, created: true)
      case .similarExists: report.record(.recipe, created: false)
      }
    }
  }

  /// Whether a live recipe has this title; several count as present.
  private static func recipeExists(_ title: String, in library: Library) throws -> Bool {
    do {
      return try library.recipes.find(title) != nil
    } catch RepositoryError.ambiguous {
      return true
    }
  }
}
