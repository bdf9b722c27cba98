import Foundation
import Model
import RecipeExchange
import Repositories

/// Tables and field lists for entities, shared by the command groups.
enum Rows {
  /// "1 category", "7 categories".
  static func count(_ number: Int, _ kind: EntityKind) -> String {
    "\(number) \(number == 1 ? kind.label : plural(kind))"
  }

  static func plural(_ kind: EntityKind) -> String {
    kind == .category ? "categories" : kind.label + "s"
  }

  static func id(_ id: UUID) -> JSONValue { .string(id.shortText) }

  static func timestamp(_ date: Date?) -> JSONValue {
    guard let date else { return .null }
    return .string(ISO8601DateFormatter().string(from: date))
  }

  // MARK: Categories and tags

  static func categories(_ categories: [Model.Category]) -> Table {
    Table(
      key: "categories",
      columns: [
        Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("key"), Table.Column("sortOrder", "SORT", alignRight: true),
      ],
      rows: categories.map { [id($0.id), .string($0.displayName), .string($0.normalizedName), .int(Int($0.sortOrder))] },
      emptyText: "no categories")
  }

  static func tags(_ tags: [Model.Tag]) -> Table {
    Table(
      key: "tags",
      columns: [Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("key"), Table.Column("color")],
      rows: tags.map { [id($0.id), .string($0.displayName), .string($0.normalizedName), .text($0.color)] },
      emptyText: "no tags")
  }

  // MARK: Ingredients

  static func ingredients(_ templates: [IngredientTemplate], categoryNames: [UUID: String]) -> Table {
    Table(
      key: "ingredients",
      columns: [
        Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("key"), Table.Column("category"),
        Table.Column("kind"), Table.Column("aliases"), Table.Column("staple"), Table.Column("usageCount", "USED", alignRight: true),
      ],
      rows: templates.map {
        [
          id($0.id), .string($0.displayName), .string($0.canonicalName), .text($0.category.flatMap { categoryNames[$0] }),
          .string($0.ingredientKind.rawValue), .strings($0.aliases), .bool($0.isStaple), .int(Int($0.usageCount)),
        ]
      },
      emptyText: "no ingredients")
  }

  static func ingredientFields(_ template: IngredientTemplate, category: String?) -> [CommandResult.Field] {
    [
      .init("name", .string(template.displayName)), .init("key", .string(template.canonicalName)),
      .init("id", .string(template.id.shortText)), .init("category", .text(category)),
      .init("kind", .string(template.ingredientKind.rawValue)), .init("aliases", .strings(template.aliases)),
      .init("staple", .bool(template.isStaple)), .init("usageCount", label: "used", .int(Int(template.usageCount))),
      .init("gramsPerCup", label: "grams per cup", .number(template.gramsPerCup)),
    ]
  }

  /// The names of the categories `templates` point to: looked up one by one for a few
  /// (printing one ingredient reads one category, whatever the store holds), read whole
  /// for many.
  static func categoryNames(_ library: Library, for templates: [IngredientTemplate]) throws -> [UUID: String] {
    let ids = Set(templates.compactMap(\.category))
    guard ids.count > lookupLimit else {
      return try Dictionary(
        uniqueKeysWithValues: ids.compactMap { id in try library.categories.find(id.uuidString).map { (id, $0.displayName) } })
    }
    return Dictionary(uniqueKeysWithValues: try library.categories.all().map { ($0.id, $0.displayName) })
  }

  /// How many records a row set looks up one by one before reading the kind whole.
  static let lookupLimit = 32

  // MARK: Books

  static func books(_ books: [Book]) -> Table {
    Table(
      key: "books",
      columns: [Table.Column("id", jsonOnly: true), Table.Column("title"), Table.Column("author"), Table.Column("key", jsonOnly: true)],
      rows: books.map { [id($0.id), .string($0.title), .text($0.author), .string($0.bookKey)] },
      emptyText: "no books")
  }

  // MARK: Recipes

  static func recipes(_ recipes: [Recipe], bookTitles: [UUID: String], key: String = "recipes") -> Table {
    Table(
      key: key,
      columns: [
        Table.Column("id", jsonOnly: true), Table.Column("name"), Table.Column("cuisine"), Table.Column("source"),
        Table.Column("prepTime", "PREP"), Table.Column("cookTime", "COOK"),
        Table.Column("ingredientCount", "INGREDIENTS", alignRight: true),
      ],
      rows: recipes.map { recipe in
        [
          id(recipe.id), .string(recipe.displayName), .text(recipe.recipeCuisine),
          .string(source(recipe, bookTitle: recipe.book.flatMap { bookTitles[$0] })), .text(recipe.prepTime),
          .text(recipe.cookTime), .int(recipe.recipeIngredient.count),
        ]
      },
      emptyText: "no recipes")
  }

  /// "The Wok p.89", "https://…", "manual".
  static func source(_ recipe: Recipe, bookTitle: String?) -> String {
    switch recipe.sourceType {
    case .book:
      let page = recipe.sourcePageNumber.map { " p.\($0)" } ?? ""
      return (bookTitle ?? "book") + page
    case .url: return recipe.sourceURL ?? "url"
    case .manual: return "manual"
    }
  }

  /// The titles of the books `recipes` cite, as ``categoryNames(_:for:)`` reads names.
  static func bookTitles(_ library: Library, for recipes: [Recipe]) throws -> [UUID: String] {
    let ids = Set(recipes.compactMap(\.book))
    guard ids.count > lookupLimit else {
      return try Dictionary(uniqueKeysWithValues: ids.compactMap { id in try library.books.find(id.uuidString).map { (id, $0.title) } })
    }
    return Dictionary(uniqueKeysWithValues: try library.books.all().map { ($0.id, $0.title) })
  }

  static func recipeFields(_ details: RecipeDetails) -> [CommandResult.Field] {
    let recipe = details.recipe
    return [
      .init("name", .string(recipe.displayName)), .init("id", .string(recipe.id.shortText)),
      .init("titleKey", label: "key", .string(recipe.titleKey)),
      .init("description", .text(recipe.recipeDescription)), .init("cuisine", .text(recipe.recipeCuisine)),
      .init("category", .text(recipe.recipeCategory)), .init("yield", .text(recipe.recipeYield)),
      .init("prepTime", label: "prep", .text(recipe.prepTime)), .init("cookTime", label: "cook", .text(recipe.cookTime)),
      .init("totalTime", label: "total", .text(recipe.totalTime)), .init("author", .text(recipe.author)),
      .init("datePublished", label: "published", .text(recipe.datePublished)),
      .init("source", .string(source(recipe, bookTitle: details.book?.title))),
      .init("book", .text(details.book?.title)), .init("bookAuthor", label: "book author", .text(details.book?.author)),
      .init("page", recipe.sourcePageNumber.map { JSONValue.int(Int($0)) } ?? .null), .init("url", .text(recipe.sourceURL)),
      .init("tags", details.tags.isEmpty ? .null : .strings(details.tags.map(\.displayName))),
      .init("keywords", recipe.keywords.isEmpty ? .null : .strings(recipe.keywords)),
      .init("favorite", recipe.isFavorite ? .bool(true) : .null), .init("notes", .text(recipe.notes)),
      .init("steps", recipe.recipeInstructions.isEmpty ? .null : .strings(steps(recipe.recipeInstructions))),
      .init("planned", details.plannedMeals.isEmpty ? .null : .strings(details.plannedMeals.map { "\($0.date) \($0.mealType.rawValue)" })),
    ]
  }

  /// The steps as `recipe show` lists them: numbered in order, each section heading (a
  /// step "## Dressing", as sections are stored) as the heading "Dressing:", unnumbered.
  static func steps(_ instructions: [String]) -> [String] {
    var number = 0
    return instructions.map { step in
      if let heading = StepHeadings.name(of: step) { return heading + ":" }
      number += 1
      return "\(number). \(step)"
    }
  }

  /// A scale factor as people read it: "2", "1.5", "0.667".
  static func factorText(_ factor: Double) -> String {
    factor.rounded() == factor && abs(factor) < 1e15 ? String(Int64(factor)) : String(format: "%.3g", factor)
  }

  /// A recipe's lines in order; when it groups them, each group's heading beside its
  /// first line (a GROUP column, and `group` on each line in JSON).
  static func recipeLines(_ details: RecipeDetails) -> Table {
    let grouped = details.lines.contains { $0.ingredient.group != nil }
    var columns = [
      Table.Column("quantity", "QTY", alignRight: true), Table.Column("unit"), Table.Column("ingredient"),
      Table.Column("notes"), Table.Column("line", "AS WRITTEN"),
    ]
    if grouped {
      columns.insert(contentsOf: [Table.Column("groupHeading", "GROUP", tableOnly: true), Table.Column("group", jsonOnly: true)], at: 0)
    }
    var previous: String?? = .none
    let rows = details.lines.map { line -> [JSONValue] in
      let row: [JSONValue] = [
        .number(line.ingredient.quantity), .text(line.ingredient.unit), .text(line.template?.displayName),
        .text(line.ingredient.notes), .string(line.ingredient.rawLine),
      ]
      guard grouped else { return row }
      let group = line.ingredient.group
      defer { previous = .some(group) }
      let heading: JSONValue = previous == .some(group) ? .string("") : .string(group ?? "")
      return [heading, .text(group)] + row
    }
    return Table(key: "ingredients", columns: columns, rows: rows, emptyText: "no ingredient lines")
  }

  // MARK: Duplicates

  static func duplicates(_ groups: [DuplicateGroup]) -> CommandResult {
    var rows: [[JSONValue]] = []
    for group in groups {
      for (index, member) in group.members.enumerated() {
        rows.append([
          .string(group.kind.label), .string(group.key), .string(member.name), .string(member.id.shortText),
          .string(index == 0 ? "keeper" : ""),
        ])
      }
    }
    return CommandResult(
      .table(
        Table(
          key: "duplicates",
          columns: [Table.Column("kind"), Table.Column("key"), Table.Column("name"), Table.Column("id"), Table.Column("role", "")],
          rows: rows, emptyText: "no duplicates")))
  }
}
