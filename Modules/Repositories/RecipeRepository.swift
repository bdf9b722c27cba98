public import Foundation
public import Model
import Normalization
import Persistence

/// Recipes. Recipes that share a title key ("Mom's Lasagna" ≡ "Moms Lasagna") are
/// detected, not merged: creating one reports the similar ones, and the caller creates it
/// anyway only by saying so.
public struct RecipeRepository {
  let context: RepositoryContext

  // MARK: Creating

  /// Creates a recipe with its ingredient lines, resolving each line to an ingredient
  /// template (created when missing), its tags and its book.
  /// - Parameters:
  ///   - draft: what the person gave.
  ///   - allowSimilar: create even when recipes with the same title key exist.
  ///   - seedKey: for data that several devices create independently (the sample
  ///     library): the recipe then gets a name-based id from this key, so every device
  ///     creates the same record instead of a duplicate.
  /// - Returns: `.created`, or `.similarExists` (nothing written) listing the matches.
  /// - Throws: ``RepositoryError`` for a bad name, line, time, date, URL or page.
  public func create(_ draft: RecipeDraft, allowSimilar: Bool = false, seedKey: String? = nil) throws -> RecipeCreation {
    try context.write { writer in
      let name = try NameRules.clean(draft.name, for: .recipe)
      let titleKey = SemanticKey.titleKey(name)
      guard !titleKey.isEmpty else {
        throw RepositoryError.invalidValue(field: "name", value: name, reason: "needs at least one letter or digit")
      }
      let similar = try writer.entities(Recipe.self, key: titleKey)
      if !similar.isEmpty && !allowSimilar { return .similarExists(similar) }

      let parsed = try draft.ingredients.enumerated().map { index, line in try Self.parse(line, number: index + 1) }
      let groups = try draft.ingredients.indices.map { index in
        try Self.groupName(index < draft.ingredientGroups.count ? draft.ingredientGroups[index] : nil, line: index + 1)
      }
      let id = try seedKey.map { try writer.freeDeterministicID(.recipe, key: "seed:" + $0) } ?? context.newID()
      var recipe = Recipe(
        meta: context.newMeta(id: id), displayName: name, titleKey: titleKey,
        recipeIngredient: parsed.map(\.raw), normalizedIngredients: parsed.map(\.line.canonicalName),
        recipeInstructions: draft.instructions.map(Self.trimmed).filter { !$0.isEmpty },
        isFavorite: draft.isFavorite
      )
      let library = Library(context: context.bound(to: writer))
      try Self.apply(Self.changes(from: draft), to: &recipe, library: library)
      try writer.insert(recipe)

      let templates = library.ingredients
      for (order, entry) in parsed.enumerated() {
        // A new template is inserted already counted as used: one write.
        let template = try templates.getOrCreate(entry.line.canonicalName, usedAt: context.now(), in: writer)
        // Lines are named after their recipe and position. A seeded recipe's lines get
        // name-based ids, the same records on every device and every version; a recipe
        // made here, with a random id, gives its lines ids next to its own, so the line
        // index takes them on one page (DeterministicID.child(of:at:)).
        let lineID =
          (seedKey == nil ? DeterministicID.child(of: recipe.id, at: order) : nil)
          ?? DeterministicID.uuidV5(namespace: recipe.id, name: "line:\(order)")
        try writer.insert(
          RecipeIngredient(
            meta: context.newMeta(id: lineID), recipe: recipe.id, template: template.id, rawLine: entry.raw,
            quantity: entry.line.quantity, unit: entry.line.unit, notes: entry.line.notes, sortOrder: Int64(order),
            group: groups[order]
          ))
      }
      return .created(recipe)
    }
  }

  /// An ingredient group's heading as stored: whitespace collapsed, a trailing colon
  /// dropped ("For the sauce:" is the group "For the sauce"); nil for none or a blank one.
  /// - Throws: ``RepositoryError/invalidValue(field:value:reason:)`` naming the line, for a
  ///   heading with a control character or longer than a name.
  public static func groupName(_ heading: String?, line: Int) throws(RepositoryError) -> String? {
    guard let heading else { return nil }
    var words = heading.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    while words.hasSuffix(":") { words = String(words.dropLast()).trimmingCharacters(in: .whitespaces) }
    guard !words.isEmpty else { return nil }
    do {
      return try NameRules.clean(words, for: .recipeIngredient)
    } catch .invalidValue(_, let value, let reason) {
      throw .invalidValue(field: "group of ingredient line \(line)", value: value, reason: reason)
    } catch .nameTooLong(_, let length, let maximum) {
      throw .invalidValue(
        field: "group of ingredient line \(line)", value: String(words.prefix(40)) + "…",
        reason: "has \(length) characters; the limit is \(maximum)")
    } catch {
      throw error
    }
  }

  /// The text without leading and trailing whitespace and newlines. ASCII text is trimmed
  /// by its bytes, of the same set: Foundation's trimming bridges through `NSString` and
  /// cost a third as much as parsing the line.
  private static func trimmed(_ text: String) -> String {
    let utf8 = text.utf8
    guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
    guard let first = utf8.firstIndex(where: { !trimmedASCII[Int($0)] }),
      let last = utf8.lastIndex(where: { !trimmedASCII[Int($0)] })
    else { return "" }
    if first == utf8.startIndex && utf8.index(after: last) == utf8.endIndex { return text }
    return String(text[first...last])
  }

  /// Which ASCII bytes `CharacterSet.whitespacesAndNewlines` holds.
  private static let trimmedASCII: [Bool] = (0..<128).map {
    CharacterSet.whitespacesAndNewlines.contains(Unicode.Scalar(UInt8($0)))
  }

  private static func parse(_ line: String, number: Int) throws -> (raw: String, line: IngredientLine) {
    let raw = trimmed(line)
    switch check(raw) {
    case .success(let parsed): return (raw, parsed)
    case .failure(let problem):
      let shown = raw.isEmpty ? line : (raw.count > RecipeLimits.ingredientLine ? String(raw.prefix(40)) + "…" : raw)
      throw RepositoryError.invalidIngredientLine(number: number, line: shown, reason: problem.reason)
    }
  }

  /// Why ``create(_:allowSimilar:seedKey:)`` would refuse this ingredient line (empty,
  /// too long, no ingredient name, an amount out of range), or nil when it would take it.
  /// Importers use it to leave such a line out with a warning instead of refusing a page.
  public static func problem(inIngredientLine line: String) -> String? {
    if case .failure(let problem) = check(trimmed(line)) { return problem.reason }
    return nil
  }

  private struct LineProblem: Error {
    let reason: String
  }

  private static func check(_ raw: String) -> Result<IngredientLine, LineProblem> {
    guard !raw.isEmpty else { return .failure(LineProblem(reason: "the line is empty")) }
    guard raw.count <= RecipeLimits.ingredientLine else {
      return .failure(LineProblem(reason: "longer than \(RecipeLimits.ingredientLine) characters"))
    }
    let parsed = IngredientLine.parse(raw)
    guard !parsed.canonicalName.isEmpty else {
      return .failure(LineProblem(reason: "no ingredient name after the quantity and unit"))
    }
    guard parsed.canonicalName.utf8.count <= NameRules.maximumLength || parsed.canonicalName.count <= NameRules.maximumLength else {
      return .failure(LineProblem(reason: "the ingredient name is longer than \(NameRules.maximumLength) characters"))
    }
    for amount in [parsed.quantity, parsed.quantityUpperBound].compactMap({ $0 }) where !Amounts.isReasonable(amount) {
      return .failure(LineProblem(reason: Amounts.outOfRange))
    }
    return .success(parsed)
  }

  private static func changes(from draft: RecipeDraft) -> [RecipeChange] {
    var changes: [RecipeChange] = [
      .description(draft.description), .cuisine(draft.cuisine), .category(draft.category), .yield(draft.yield),
      .prepTime(draft.prepTime), .cookTime(draft.cookTime), .totalTime(draft.totalTime), .notes(draft.notes),
      .url(draft.url), .page(draft.page), .keywords(draft.keywords), .addTags(draft.tags), .author(draft.author),
      .datePublished(draft.datePublished),
    ]
    if draft.book != nil { changes.append(.book(title: draft.book, author: draft.bookAuthor)) }
    return changes
  }

  // MARK: Reading

  /// The live recipe with this id or title (any spelling with the same title key).
  /// - Throws: ``RepositoryError/ambiguous(_:_:ids:)`` when several recipes share the title.
  public func find(_ nameOrID: String) throws -> Recipe? {
    try context.read { try find(nameOrID, in: $0) }
  }

  func find(_ nameOrID: String, in reader: any StoreReader) throws -> Recipe? {
    if let id = UUID(uuidString: nameOrID.trimmingCharacters(in: .whitespaces)) {
      return try reader.entity(Recipe.self, id: id)
    }
    let name = try NameRules.clean(nameOrID, for: .recipe)
    let matches = try reader.entities(Recipe.self, key: SemanticKey.titleKey(name))
    if matches.count > 1 { throw RepositoryError.ambiguous(.recipe, name, ids: matches.map(\.id)) }
    return matches.first
  }

  func require(_ nameOrID: String, in reader: any StoreReader) throws -> Recipe {
    guard let recipe = try find(nameOrID, in: reader) else { throw RepositoryError.notFound(.recipe, nameOrID) }
    return recipe
  }

  /// Records that the recipe was cooked: one more use, last used now.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown recipe.
  public func cooked(_ nameOrID: String) throws -> Recipe {
    try context.write { writer in
      var recipe = try require(nameOrID, in: writer)
      recipe.usageCount += 1
      recipe.lastUsed = context.now()
      try writer.save(recipe, at: context.now())
      return recipe
    }
  }

  /// A recipe with its ingredient lines, templates, book, tags and planned meals.
  public func details(_ nameOrID: String) throws -> RecipeDetails {
    try context.read { reader in
      let recipe = try require(nameOrID, in: reader)
      let ingredients = try reader.entities(
        RecipeIngredient.self,
        RecordQuery(.recipeIngredient, filters: [.references("recipe", recipe.id)], sort: [SortKey("sortOrder")])
      )
      let lines = try ingredients.map {
        RecipeDetails.Line(ingredient: $0, template: try reader.entity(IngredientTemplate.self, id: $0.template))
      }
      let meals = try reader.entities(
        PlannedMeal.self, RecordQuery(.plannedMeal, filters: [.references("recipe", recipe.id)], sort: [SortKey("slotKey")]))
      return RecipeDetails(
        recipe: recipe, lines: lines, book: try recipe.book.flatMap { try reader.entity(Book.self, id: $0) },
        tags: try recipe.tags.compactMap { try reader.entity(Tag.self, id: $0) }, plannedMeals: meals
      )
    }
  }

  /// The ingredient group of each line (in order) of the recipes that group their lines,
  /// by recipe id: what exports write as headings. Recipes without groups are left out.
  public func ingredientGroups(of recipes: [Recipe]) throws -> [UUID: [String?]] {
    try context.read { reader in
      var groups: [UUID: [String?]] = [:]
      for recipe in recipes {
        let lines = try reader.entities(
          RecipeIngredient.self,
          RecordQuery(.recipeIngredient, filters: [.references("recipe", recipe.id)], sort: [SortKey("sortOrder")]))
        if lines.contains(where: { $0.group != nil }) { groups[recipe.id] = lines.map(\.group) }
      }
      return groups
    }
  }

  /// All live recipes by name; with `cuisine`, only those of that cuisine (any case).
  public func all(cuisine: String? = nil) throws -> [Recipe] {
    let recipes = try context.read { try $0.entities(Recipe.self, RecordQuery(.recipe)) }
    guard let cuisine else { return recipes }
    let wanted = SemanticKey.normalizedName(cuisine)
    return recipes.filter { SemanticKey.normalizedName($0.recipeCuisine ?? "") == wanted }
  }

  /// Live recipes whose name, ingredients or keywords contain the text (case and
  /// accents ignored), by name.
  public func search(_ text: String) throws -> [Recipe] {
    let raw = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !raw.isEmpty else { throw RepositoryError.invalidValue(field: "search", value: text, reason: "give some text to look for") }
    let folded = SemanticKey.normalizedName(raw)
    let singular = SemanticKey.canonicalIngredientName(raw)
    var filters: [RecordFilter] = []
    for needle in Set([raw, folded]) {
      filters += [.contains("displayName", needle), .contains("recipeIngredient", needle), .contains("keywords", needle)]
    }
    for needle in Set([folded, SemanticKey.titleKey(raw)]) where !needle.isEmpty {
      filters.append(.contains("titleKey", needle))
    }
    if !singular.isEmpty { filters.append(.contains("normalizedIngredients", singular)) }
    return try context.read { try $0.entities(Recipe.self, RecordQuery(.recipe, filters: [.anyOf(filters)])) }
  }

  /// Groups of live recipes sharing a title key: possible duplicates for the user to review.
  public func duplicates() throws -> [DuplicateGroup] {
    try Library(context: context).duplicates(of: [.recipe])
  }

  // MARK: Changing

  /// Applies changes to a recipe.
  public func update(_ nameOrID: String, _ changes: [RecipeChange]) throws -> Recipe {
    try context.write { writer in
      var recipe = try require(nameOrID, in: writer)
      try Self.apply(changes, to: &recipe, library: Library(context: context.bound(to: writer)))
      try writer.save(recipe, at: context.now())
      return recipe
    }
  }

  /// Renames a recipe. Returns the other live recipes that share the new title key, so
  /// the caller can point them out.
  public func rename(_ nameOrID: String, to newName: String) throws -> (recipe: Recipe, similar: [Recipe]) {
    try context.write { writer in
      var recipe = try require(nameOrID, in: writer)
      let name = try NameRules.clean(newName, for: .recipe)
      recipe.displayName = name
      recipe.titleKey = SemanticKey.titleKey(name)
      try writer.save(recipe, at: context.now())
      return (recipe, try writer.entities(Recipe.self, key: recipe.titleKey).filter { $0.id != recipe.id })
    }
  }

  /// Deletes a recipe with its ingredient lines and the planned meals that used it;
  /// list items that came from it stay, without the link.
  public func delete(_ nameOrID: String) throws -> Recipe {
    try context.write { writer in
      let recipe = try require(nameOrID, in: writer)
      try DeleteRules.delete(.recipe, id: recipe.id, name: recipe.displayName, in: writer, at: context.now())
      return recipe
    }
  }

  /// Merges one recipe into another: planned meals and list items move to the keeper,
  /// empty fields of the keeper are filled from the other, tags are united, and the
  /// other recipe and its ingredient lines are deleted.
  public func merge(_ otherNameOrID: String, into keeperNameOrID: String) throws -> Recipe {
    try context.write { writer in
      let other = try require(otherNameOrID, in: writer)
      var keeper = try require(keeperNameOrID, in: writer)
      guard other.id != keeper.id else {
        throw RepositoryError.invalidValue(field: "merge", value: other.displayName, reason: "a recipe cannot be merged into itself")
      }
      let now = context.now()
      var record = keeper.record
      for field in Recipe.schema.fields where record[field.name].isEmptyValue {
        record[field.name] = other.record[field.name]
      }
      record["tags"] = .referenceList(keeper.tags + other.tags.filter { !keeper.tags.contains($0) })
      keeper = try Recipe(record: record)
      try writer.save(keeper, at: now)
      try Relationships.repoint(.recipe, from: other.id, to: keeper.id, in: writer, at: now)
      // The merged recipe's own lines are deleted as the user's write: they do not join
      // the kept recipe's lines on a device that learns of the merge later.
      for line in try writer.fetch(RecordQuery(.recipeIngredient, filters: [.references("recipe", other.id)], sort: [])) {
        try writer.tombstoneRecord(.recipeIngredient, id: line.id, at: now)
      }
      // Sync replicates the merge as an edge: a meal planned elsewhere with the merged
      // recipe, before that device learns of the merge, lands on the kept one.
      try writer.recordMerge(.recipe, loser: other.id, into: keeper.id, origin: context.origin)
      try DeleteRules.delete(.recipe, id: other.id, name: other.displayName, in: writer, at: now)
      return keeper
    }
  }

  // MARK: Applying changes

  static func apply(_ changes: [RecipeChange], to recipe: inout Recipe, library: Library) throws {
    for change in changes {
      switch change {
      case .description(let text): recipe.recipeDescription = try optionalText(text, "description", maximum: RecipeLimits.description)
      case .cuisine(let text): recipe.recipeCuisine = try optionalText(text, "cuisine")
      case .category(let text): recipe.recipeCategory = try optionalText(text, "category")
      case .yield(let text): recipe.recipeYield = try optionalText(text, "yield")
      case .notes(let text): recipe.notes = try optionalText(text, "notes", maximum: RecipeLimits.notes)
      case .author(let text): recipe.author = try text.map { try NameRules.clean($0, for: .recipe) }
      case .datePublished(let text):
        let cleaned = try optionalText(text, "published")
        if let cleaned, CivilDate(iso: cleaned) == nil {
          throw RepositoryError.invalidValue(field: "published", value: cleaned, reason: "use a date written YYYY-MM-DD")
        }
        recipe.datePublished = cleaned
      case .prepTime(let text): recipe.prepTime = try duration(text, "prep time")
      case .cookTime(let text): recipe.cookTime = try duration(text, "cook time")
      case .totalTime(let text): recipe.totalTime = try duration(text, "total time")
      case .url(let text):
        recipe.sourceURL = try url(text)
      case .page(let page):
        if let page, page <= 0 {
          throw RepositoryError.invalidValue(field: "page", value: String(page), reason: "a page number must be positive")
        }
        recipe.sourcePageNumber = page.map(Int64.init)
      case .book(let title, let author):
        recipe.book = try title.map { title in
          try library.books.find(title, author: author) ?? library.books.getOrCreate(title: title, author: author)
        }?.id
      case .favorite(let flag): recipe.isFavorite = flag
      case .keywords(let words): recipe.keywords = words.map(trimmed).filter { !$0.isEmpty }
      case .addTags(let names):
        for name in names {
          let tag = try library.tags.getOrCreate(name)
          if !recipe.tags.contains(tag.id) { recipe.tags.append(tag.id) }
        }
      case .removeTags(let names):
        for name in names {
          guard let tag = try library.tags.find(name) else { throw RepositoryError.notFound(.tag, name) }
          recipe.tags.removeAll { $0 == tag.id }
        }
      case .instructions(let steps): recipe.recipeInstructions = steps.map(trimmed).filter { !$0.isEmpty }
      }
    }
    if recipe.totalTime == nil, let prep = recipe.prepTime.flatMap(Durations.seconds),
      let cook = recipe.cookTime.flatMap(Durations.seconds)
    {
      recipe.totalTime = Durations.format(seconds: prep + cook)
    }
    recipe.sourceType = recipe.book != nil ? .book : (recipe.sourceURL != nil ? .url : .manual)
  }

  private static func optionalText(_ text: String?, _ field: String, maximum: Int = NameRules.maximumLength) throws -> String? {
    guard let text else { return nil }
    let cleaned = trimmed(text)
    guard cleaned.count <= maximum else {
      throw RepositoryError.invalidValue(field: field, value: String(cleaned.prefix(40)) + "…", reason: "longer than \(maximum) characters")
    }
    return cleaned.isEmpty ? nil : cleaned
  }

  private static func duration(_ text: String?, _ field: String) throws -> String? {
    guard let text, !trimmed(text).isEmpty else { return nil }
    guard let seconds = Durations.seconds(text), let iso = Durations.iso8601(text) else {
      throw RepositoryError.invalidValue(field: field, value: text, reason: "use minutes (20), 1h30m, 1:30 or PT1H30M")
    }
    guard seconds <= Durations.maximumSeconds else {
      throw RepositoryError.invalidValue(field: field, value: text, reason: "longer than 30 days")
    }
    return iso
  }

  private static func url(_ text: String?) throws -> String? {
    guard let text, !trimmed(text).isEmpty else { return nil }
    let cleaned = trimmed(text)
    guard let url = URL(string: cleaned), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      url.host?.isEmpty == false
    else {
      throw RepositoryError.invalidValue(field: "url", value: cleaned, reason: "use a web address starting with http:// or https://")
    }
    return cleaned
  }
}

extension FieldValue {
  /// Null, empty text or an empty list: nothing worth keeping when folding fields.
  var isEmptyValue: Bool {
    switch self {
    case .null: true
    case .text(let text): text.isEmpty
    case .textList(let list): list.isEmpty
    case .referenceList(let list): list.isEmpty
    case .bool(let flag): !flag
    case .integer(let number): number == 0
    default: false
    }
  }
}
