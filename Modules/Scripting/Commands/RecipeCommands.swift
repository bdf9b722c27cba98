import CommandLanguage
import Foundation
import Model
import Repositories

/// recipe add, show, list, search, set, rename, merge, duplicates, delete; import and
/// export live in ``RecipeExchangeCommands``.
enum RecipeCommands {
  /// Options that describe a recipe, shared by add and set.
  static let fieldOptions: [OptionSpec] = [
    .value("description", "a short description", placeholder: "TEXT"),
    .value("cuisine", "Italian, Asian, …", placeholder: "CUISINE"),
    .value("category", "the recipe's category: main, dessert, …", placeholder: "TEXT"),
    .value("yield", "how much it makes: \"4 servings\"", placeholder: "TEXT"),
    .value("prep", "prep time: 20, 1h30m, 1:30 or PT20M", placeholder: "TIME"),
    .value("cook", "cook time", placeholder: "TIME"),
    .value("total", "total time (prep + cook when not given)", placeholder: "TIME"),
    .value("tag", "a tag (created when missing)", placeholder: "TAG", repeatable: true, completion: .names(.tag)),
    .value("keyword", "a search keyword", placeholder: "WORD", repeatable: true),
    .value("book", "the book it is from (found or created)", placeholder: "TITLE", completion: .names(.book)),
    .value("book-author", "the book's author, to pick or create the right book", placeholder: "NAME"),
    .value("page", "the page in the book", .integer, range: .from(1, to: 1_000_000)),
    .value("url", "the web page it is from", placeholder: "URL"),
    .value("notes", "free notes", placeholder: "TEXT"),
    .value("step", "one instruction step", placeholder: "TEXT", repeatable: true),
  ]

  static let add = CommandSpec(
    "recipe add",
    summary: "Create a recipe with its ingredient lines. When a recipe with the same title key exists, nothing is created unless --anyway.",
    parameters: [.rest("name", .name, help: "the recipe's title")],
    options: [
      .value("ingredient", "one ingredient line as written: \"2 ½ cups diced tomatoes\"", placeholder: "LINE", repeatable: true),
      .value(
        "group", "the ingredient group the --ingredient lines after it stand under (\"For the sauce\")", placeholder: "NAME",
        repeatable: true),
    ] + fieldOptions + [
      .value("author", "who wrote the recipe", placeholder: "NAME"),
      .value("published", "when it was published", .date),
      .flag("favorite", "mark it a favourite"),
      .flag("anyway", "create it even when a recipe with a similar title exists"),
    ],
    block: BlockSpec(sections: [.init("ingredients", option: "ingredient", headingOption: "group"), .init("steps", option: "step")]),
    details: [
      "Ingredient lines can be given with --ingredient, or as a block: end the command line with ':'",
      "and write one line per ingredient, then 'steps:' and one line per step, then 'end'.",
      "Block lines are raw text: no quoting needed. An ingredient line ending in ':' (\"For the sauce:\") is a group heading:",
      "the lines after it stand under it, as after --group NAME.",
    ],
    examples: [
      "recipe add \"Egg Fried Rice\" --cuisine Asian --ingredient \"3 cups cooked rice\" --ingredient \"2 eggs\"",
      "recipe add \"Mom's Lasagna\" --cuisine Italian --prep 30m --cook 1h --tag family:\n  12 lasagna noodles\n  2 cups ricotta\nsteps:\n  Layer and bake.\nend",
      "recipe add Dumplings --ingredient \"2 cups flour\" --group \"Dipping sauce\" --ingredient \"3 tbsp soy sauce\"",
    ]
  ) { invocation, session in
    var draft = RecipeDraft(name: invocation.argument("name"))
    let lines = invocation.values("ingredient", under: "group")
    draft.ingredients = lines.map(\.value)
    draft.ingredientGroups = lines.map(\.heading)
    draft.instructions = invocation.values("step")
    draft.author = invocation.option("author")
    draft.datePublished = invocation.option("published")
    draft.isFavorite = invocation.flag("favorite")
    draft.description = invocation.option("description")
    draft.cuisine = invocation.option("cuisine")
    draft.category = invocation.option("category")
    draft.yield = invocation.option("yield")
    draft.prepTime = invocation.option("prep")
    draft.cookTime = invocation.option("cook")
    draft.totalTime = invocation.option("total")
    draft.tags = invocation.values("tag")
    draft.keywords = invocation.values("keyword")
    draft.book = invocation.option("book")
    draft.bookAuthor = invocation.option("book-author")
    draft.page = invocation.integer("page")
    draft.url = invocation.option("url")
    draft.notes = invocation.option("notes")
    switch try session.library.recipes.create(draft, allowSimilar: invocation.flag("anyway")) {
    case .created(let recipe):
      let details = try session.library.recipes.details(recipe.id.uuidString)
      return CommandResult(
        .message(
          "created recipe '\(recipe.displayName)' with \(details.lines.count) ingredient line\(details.lines.count == 1 ? "" : "s")"),
        .fields(key: "recipe", Rows.recipeFields(details)))
    case .similarExists(let similar):
      let names = similar.map { "'\($0.displayName)' (id \($0.id.shortText))" }.joined(separator: ", ")
      throw invocation.failure(
        "a recipe with a similar title already exists: \(names); nothing was created. Add --anyway to create it anyway",
        argument: "name")
    }
  }

  static let show = CommandSpec(
    "recipe show",
    summary:
      "A recipe with its ingredient lines as read, source, tags and planned meals; --servings or --scale multiplies the quantities (lines without one stay as written).",
    parameters: [.rest("name", .name, completion: .names(.recipe), help: "a recipe title (any spelling with the same key) or id")],
    options: scaleOptions,
    oneOf: [scaleChoice],
    examples: ["recipe show Egg Fried Rice", "recipe show Egg Fried Rice --servings 8"]
  ) { invocation, session in
    let name = invocation.argument("name")
    guard let scale = scale(invocation) else {
      let details = try session.library.recipes.details(name)
      return CommandResult(.fields(key: "recipe", Rows.recipeFields(details)), .table(Rows.recipeLines(details)))
    }
    let (details, factor) = try session.library.recipes.details(name, scaledBy: scale)
    return CommandResult(
      .fields(key: "recipe", Rows.recipeFields(details)), .message("scaled × \(Rows.factorText(factor))"),
      .data(key: "scale", .double(factor)), .table(Rows.recipeLines(details)))
  }

  static let suggest = CommandSpec(
    "recipe suggest",
    summary: "What can I make: recipes ranked by how many ingredients are missing, given the pantry and staples; then the most cooked.",
    options: [.value("limit", "show only this many", .integer, range: .from(1, to: 1_000))],
    examples: ["recipe suggest", "recipe suggest --limit 3"]
  ) { invocation, session in
    var suggestions = try session.library.pantry.suggestions()
    if let limit = invocation.integer("limit") { suggestions = Array(suggestions.prefix(limit)) }
    return CommandResult(
      .table(
        Table(
          key: "suggestions",
          columns: [
            Table.Column("id", jsonOnly: true), Table.Column("name", "RECIPE"), Table.Column("missingCount", "MISSING", alignRight: true),
            Table.Column("missing", "NEEDS"), Table.Column("cooked", alignRight: true),
          ],
          rows: suggestions.map {
            [
              Rows.id($0.recipe.id), .string($0.recipe.displayName), .int($0.missing.count), .strings($0.missing),
              .int(Int($0.recipe.usageCount)),
            ]
          },
          emptyText: "no recipes")))
  }

  static let cooked = CommandSpec(
    "recipe cooked",
    summary:
      "Record that a recipe was cooked: one more use (recipe suggest ranks the most cooked first); --use-pantry also takes its amounts out of the pantry.",
    parameters: [.rest("name", .name, completion: .names(.recipe))],
    options: scaleOptions + [
      .flag("use-pantry", "take the recipe's amounts (scaled by --servings or --scale) out of the pantry's amounts"),
      .flag("yes", "in the REPL, write what --use-pantry showed (without it the REPL only shows it)"),
    ],
    oneOf: [scaleChoice],
    details: [
      "Only ingredients with an amount on hand change: each loses what the recipe needs where the two compare; one used up leaves the pantry.",
      "In the REPL, --use-pantry first shows what it would write and writes nothing; run it again with --yes to write. Scripts write at once and print what they wrote.",
    ],
    examples: ["recipe cooked Egg Fried Rice", "recipe cooked Egg Fried Rice --servings 2 --use-pantry --yes"]
  ) { invocation, session in
    let name = invocation.argument("name")
    let scale = scale(invocation)
    guard invocation.flag("use-pantry") else {
      if scale != nil { throw invocation.failure("only with --use-pantry (the servings scale what it takes out)", argument: "--servings") }
      let recipe = try session.library.recipes.cooked(name)
      return CommandResult(
        .message("cooked '\(recipe.displayName)' (\(recipe.usageCount) time\(recipe.usageCount == 1 ? "" : "s"))"),
        .data(key: "usageCount", .int(Int(recipe.usageCount))))
    }
    if session.showsWritesFirst && !invocation.flag("yes") {
      let uses = try session.library.pantry.use(recipe: name, scaledBy: scale, write: false)
      return CommandResult(
        parts: [.message("would take out of the pantry (nothing written; add --yes to write and count the cooking):")]
          + pantryUses(uses) + [.data(key: "written", .bool(false))])
    }
    let (recipe, uses) = try session.library.transaction { tx in
      (try tx.recipes.cooked(name), try tx.pantry.use(recipe: name, scaledBy: scale, write: true))
    }
    return CommandResult(
      parts: [
        .message("cooked '\(recipe.displayName)' (\(recipe.usageCount) time\(recipe.usageCount == 1 ? "" : "s")); pantry:"),
        .data(key: "usageCount", .int(Int(recipe.usageCount))), .data(key: "written", .bool(true)),
      ] + pantryUses(uses))
  }

  /// What cooking takes out of the pantry, one row per ingredient with an amount on hand.
  static func pantryUses(_ uses: [PantryRepository.Use]) -> [CommandResult.Part] {
    [
      .table(
        Table(
          key: "pantry",
          columns: [
            Table.Column("ingredient"), Table.Column("before"), Table.Column("taken"), Table.Column("after"),
            Table.Column("comparable", jsonOnly: true),
          ],
          rows: uses.map {
            [
              .string($0.ingredient), .string($0.before), .string($0.taken),
              .string($0.isComparable ? $0.after ?? "used up" : "\($0.before) (not comparable)"), .bool($0.isComparable),
            ]
          },
          emptyText: "no ingredient of it has an amount in the pantry"))
    ]
  }

  /// `--servings N` and `--scale F`, shared by `recipe show` and `list add-recipe`.
  static let scaleOptions: [OptionSpec] = [
    .value("servings", "make this many servings, scaled from the recipe's yield", .number, range: servingsRange),
    .value(
      "scale", "multiply every quantity by this factor", .number, placeholder: "FACTOR",
      range: .above(0, atMost: RecipeScale.maximumFactor)),
  ]

  /// `--servings` or `--scale`, not both.
  static let scaleChoice = OneOf("--servings", "--scale")

  /// The servings a user may ask for: `--servings` of a recipe or a planned meal.
  static let servingsRange = ValueRange.above(0, atMost: RecipeScale.maximumServings)

  /// The scale the options ask for (``scaleChoice`` gives at most one), or nil for none.
  static func scale(_ invocation: Invocation) -> RecipeScale? {
    if let servings = invocation.option("servings").flatMap(Double.init) { return .servings(servings) }
    return invocation.option("scale").flatMap(Double.init).map(RecipeScale.factor)
  }

  static let list = CommandSpec(
    "recipe list", summary: "All recipes by name; --cuisine keeps one cuisine's (any case).",
    options: [.value("cuisine", "only this cuisine", placeholder: "CUISINE")],
    examples: ["recipe list", "recipe list --cuisine asian"]
  ) { invocation, session in
    let recipes = try session.library.recipes.all(cuisine: invocation.option("cuisine"))
    return CommandResult(.table(Rows.recipes(recipes, bookTitles: try Rows.bookTitles(session.library, for: recipes))))
  }

  static let search = CommandSpec(
    "recipe search", summary: "Recipes whose name, ingredients or keywords contain the text (case, accents and plurals ignored).",
    parameters: [.rest("text", help: "what to look for")],
    examples: ["recipe search tomatoes", "recipe search creme"]
  ) { invocation, session in
    let recipes = try session.library.recipes.search(invocation.argument("text"))
    return CommandResult(.table(Rows.recipes(recipes, bookTitles: try Rows.bookTitles(session.library, for: recipes))))
  }

  static let set = CommandSpec(
    "recipe set", summary: "Change a recipe's fields; an empty value (\"\") clears a field. --step replaces the steps.",
    parameters: [.rest("name", .name, completion: .names(.recipe))],
    options: fieldOptions + [
      .value("untag", "take a tag off", placeholder: "TAG", repeatable: true, completion: .names(.tag)),
      .value("favorite", "mark or unmark as favourite", .boolean, completion: .words(["yes", "no"])),
    ],
    examples: [
      "recipe set \"Egg Fried Rice\" --cuisine Chinese --tag weeknight --favorite yes", "recipe set \"Egg Fried Rice\" --url \"\"",
    ]
  ) { invocation, session in
    var changes: [RecipeChange] = []
    let text: [(String, (String?) -> RecipeChange)] = [
      ("description", RecipeChange.description), ("cuisine", RecipeChange.cuisine), ("category", RecipeChange.category),
      ("yield", RecipeChange.yield), ("prep", RecipeChange.prepTime), ("cook", RecipeChange.cookTime),
      ("total", RecipeChange.totalTime), ("notes", RecipeChange.notes), ("url", RecipeChange.url),
    ]
    for (option, change) in text {
      if let value = invocation.option(option) { changes.append(change(value.isEmpty ? nil : value)) }
    }
    if let page = invocation.option("page") { changes.append(.page(Int(page))) }
    if let book = invocation.option("book") {
      changes.append(.book(title: book.isEmpty ? nil : book, author: invocation.option("book-author")))
    }
    if let favorite = invocation.boolean("favorite") { changes.append(.favorite(favorite)) }
    if invocation.options["keyword"] != nil { changes.append(.keywords(invocation.values("keyword"))) }
    if invocation.options["tag"] != nil { changes.append(.addTags(invocation.values("tag"))) }
    if invocation.options["untag"] != nil { changes.append(.removeTags(invocation.values("untag"))) }
    if invocation.options["step"] != nil { changes.append(.instructions(invocation.values("step"))) }
    guard !changes.isEmpty else {
      throw invocation.failure("nothing to change; give at least one option (see 'help recipe set')")
    }
    let recipe = try session.library.recipes.update(invocation.argument("name"), changes)
    let details = try session.library.recipes.details(recipe.id.uuidString)
    return CommandResult(.message("updated recipe '\(recipe.displayName)'"), .fields(key: "recipe", Rows.recipeFields(details)))
  }

  static let rename = CommandSpec(
    "recipe rename", summary: "Rename a recipe; recipes that then share its title key are pointed out.",
    parameters: [.rest("old", .name, completion: .names(.recipe)), .keyword("to"), .rest("new", .name)],
    examples: ["recipe rename \"Egg Fried Rice\" to \"Kenji's Egg Fried Rice\""]
  ) { invocation, session in
    let (recipe, similar) = try session.library.recipes.rename(invocation.argument("old"), to: invocation.argument("new"))
    var parts: [CommandResult.Part] = [.message("renamed recipe to '\(recipe.displayName)'")]
    if !similar.isEmpty {
      parts.append(
        .message("note: now similar to \(similar.map { "'\($0.displayName)'" }.joined(separator: ", ")); see 'recipe duplicates'"))
    }
    parts.append(.table(Rows.recipes([recipe], bookTitles: try Rows.bookTitles(session.library, for: [recipe]))))
    return CommandResult(parts: parts)
  }

  static let merge = CommandSpec(
    "recipe merge",
    summary: "Merge one recipe into another: meals and list items move, empty fields are filled, tags united, the other is deleted.",
    parameters: [
      .rest("other", completion: .names(.recipe), help: "the recipe that goes away (title or id)"), .keyword("into"),
      .rest("keeper", completion: .names(.recipe), help: "the recipe that stays (title or id)"),
    ],
    details: ["When both recipes share a title, name them by id (see 'recipe duplicates')."],
    examples: ["recipe merge \"Moms Lasagna\" into \"Mom's Lasagna\"", "recipe merge 6f1c… into 0a2b…"]
  ) { invocation, session in
    let keeper = try session.library.recipes.merge(invocation.argument("other"), into: invocation.argument("keeper"))
    return CommandResult(
      .message("merged '\(invocation.argument("other"))' into '\(keeper.displayName)'"),
      .table(Rows.recipes([keeper], bookTitles: try Rows.bookTitles(session.library, for: [keeper]))))
  }

  static let duplicates = CommandSpec(
    "recipe duplicates", summary: "Groups of recipes sharing a title key, for you to review or merge.",
    examples: ["recipe duplicates"]
  ) { _, session in
    Rows.duplicates(try session.library.recipes.duplicates())
  }

  static let delete = CommandSpec(
    "recipe delete", summary: "Delete a recipe with its ingredient lines and planned meals; list items from it stay.",
    parameters: [.rest("name", .name, completion: .names(.recipe))],
    examples: ["recipe delete \"Caesar Salad\""]
  ) { invocation, session in
    let recipe = try session.library.recipes.delete(invocation.argument("name"))
    return CommandResult(.message("deleted recipe '\(recipe.displayName)'"))
  }
}
