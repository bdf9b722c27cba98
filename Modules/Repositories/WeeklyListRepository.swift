import Foundation
public import Model
import Normalization
import Persistence

/// Weekly grocery lists and their items. A list is one per ISO week and name (its key,
/// `SemanticKey.listKey`: "2024-W50|weekly"), created with a name-based id, so lists
/// made on several devices offline are one list; items may repeat (two recipes both need
/// milk) and are consolidated when shown.
public struct WeeklyListRepository {
  let context: RepositoryContext

  /// The list for an ISO week ("2026-W47" or a date in it; without one, the current week)
  /// and name: the existing one when the week already has a list of that name ("weekly"
  /// finds "Weekly"), else a new one.
  public func create(_ name: String, week: String? = nil) throws -> WeeklyList {
    try getOrCreate(name, week: week).list
  }

  /// ``create(_:week:)``, saying whether the list is new. An existing list is returned
  /// unchanged.
  /// - Throws: ``RepositoryError`` for a bad name or week; nothing is written then.
  public func getOrCreate(_ name: String, week: String? = nil) throws -> (list: WeeklyList, created: Bool) {
    let cleaned = try NameRules.clean(name, for: .weeklyList)
    let weekID = try week.map { try PlannedMealRepository.isoWeek($0).description } ?? currentWeek()
    let key = SemanticKey.listKey(week: weekID, name: cleaned)
    guard !SemanticKey.normalizedName(cleaned).isEmpty else { throw RepositoryError.emptyName(.weeklyList) }
    if !context.isBound, let found = try context.read({ try list(withKey: key, in: $0) }) { return (found, false) }
    return try context.write { writer in
      if let found = try list(withKey: key, in: writer) { return (found, false) }
      // The name-based id, as every unique kind's: several devices that make "Weekly" for
      // one week offline make the same record. A later generation when a list once held it.
      func make(_ id: UUID) -> WeeklyList {
        WeeklyList(meta: context.newMeta(id: id), displayName: cleaned, weekIdentifier: weekID, listKey: key)
      }
      do {
        let list = make(DeterministicID.make(kind: .weeklyList, semanticKey: key))
        try writer.insert(list)
        return (list, true)
      } catch StoreError.duplicateID {
        let list = make(try writer.freeDeterministicID(.weeklyList, key: key))
        try writer.insert(list)
        return (list, true)
      }
    }
  }

  /// The live list with this key (the smallest id, should a store hold several).
  private func list(withKey key: String, in reader: any StoreReader) throws -> WeeklyList? {
    try reader.records(.weeklyList, semanticKey: key).first.map { try WeeklyList(record: $0) }
  }

  /// The list with its key computed again from its name and week: every save writes it,
  /// so a list an older build synced without one gets it with its next change.
  static func keyed(_ list: WeeklyList) -> WeeklyList {
    var list = list
    list.listKey = SemanticKey.listKey(week: list.weekIdentifier, name: list.displayName)
    return list
  }

  private func currentWeek() -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = calendar.dateComponents([.year, .month, .day], from: context.now())
    return ISOWeek.containing(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)?.description ?? "1970-W01"
  }

  /// Live lists, grouped by week (newest week first), then by name.
  public func all(week: String? = nil) throws -> [WeeklyList] {
    let filters = try week.map { [RecordFilter.equals("weekIdentifier", .text(try PlannedMealRepository.isoWeek($0).description))] } ?? []
    return try context.read {
      try $0.entities(
        WeeklyList.self,
        RecordQuery(.weeklyList, filters: filters, sort: [SortKey("weekIdentifier", ascending: false), SortKey("displayName")]))
    }
  }

  /// The live list with this id or name, or "WEEK NAME" ("2024-W50 Weekly", a week or a
  /// date in it, then the name: the list's key) when lists of several weeks share the name.
  /// - Throws: ``RepositoryError/ambiguous(_:_:ids:)`` when lists of several weeks have the name.
  public func find(_ nameOrID: String) throws -> WeeklyList? { try context.read { try find(nameOrID, in: $0) } }

  func find(_ nameOrID: String, in reader: any StoreReader) throws -> WeeklyList? {
    if let id = UUID(uuidString: nameOrID.trimmingCharacters(in: .whitespaces)) {
      return try reader.entity(WeeklyList.self, id: id)
    }
    // By name alone, across weeks (a list's key is its week and name): the store looks the
    // name up normalized (case, accents, spacing folded), from an index where it keeps one.
    let cleaned = try NameRules.clean(nameOrID, for: .weeklyList)
    let key = RecordFilter.normalizedName(cleaned)
    let matches = try reader.entities(WeeklyList.self, RecordQuery(.weeklyList, filters: [.hasNormalizedName("displayName", key)]))
    if matches.count > 1 { throw RepositoryError.ambiguous(.weeklyList, nameOrID, ids: matches.map(\.id)) }
    if let match = matches.first { return match }
    // "2024-W50 Weekly": the week's list of that name.
    let parts = cleaned.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, let week = try? PlannedMealRepository.isoWeek(String(parts[0])) else { return nil }
    return try list(withKey: SemanticKey.listKey(week: week.description, name: String(parts[1])), in: reader)
  }

  func require(_ nameOrID: String, in reader: any StoreReader) throws -> WeeklyList {
    guard let list = try find(nameOrID, in: reader) else { throw RepositoryError.notFound(.weeklyList, nameOrID) }
    return list
  }

  /// Adds an item, linked to the ingredient template of the same name when one exists.
  ///
  /// Without a `quantity`, text that starts with an amount is read like an ingredient
  /// line: "2 eggs" is the item "eggs" with quantity "2", "1 l milk" is "milk" with
  /// "1 l", and notes stay with the amount ("2 large eggs": "2 (large)"). With a
  /// `quantity`, the text is the item's name as written ("7 Up").
  /// - Throws: ``RepositoryError/invalidValue(field:value:reason:)`` for an amount out of
  ///   range or written with a sign ("-2 eggs", "−4 pears"); nothing is written then.
  public func addItem(_ name: String, quantity: String? = nil, to listNameOrID: String) throws -> GroceryListItem {
    let cleaned = try NameRules.clean(name, for: .groceryListItem)
    let given = quantity.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    if given == nil, let problem = Amounts.signProblem(in: cleaned) {
      throw RepositoryError.invalidValue(field: "item", value: cleaned, reason: problem)
    }
    let (itemName, amount) = given == nil ? Self.splitAmount(cleaned) : (cleaned, given)
    if let amount, let problem = Amounts.problem(inQuantity: amount) {
      throw RepositoryError.invalidValue(field: "quantity", value: amount, reason: problem)
    }
    return try context.write { writer in
      let list = try require(listNameOrID, in: writer)
      let template = try IngredientTemplateRepository(context: context).operations.find(itemName, in: writer)
      // A name read out of "2 eggs" is folded ("eggs"): the ingredient's own name reads better.
      let shown = itemName == cleaned ? cleaned : template?.displayName ?? itemName
      return try insertItem(shown, quantity: amount, source: .manual, list: list, template: template?.id, recipe: nil, in: writer)
    }
  }

  /// "2 eggs" → ("eggs", "2"); "1-2 l milk, cold" → ("milk", "1-2 l (cold)"); text
  /// without a leading amount is returned as it is, with no quantity.
  static func splitAmount(_ text: String) -> (name: String, quantity: String?) {
    let line = IngredientLine.parse(text)
    guard line.quantity != nil, !line.name.isEmpty else { return (text, nil) }
    return (line.name, amountText(line.quantity, upTo: line.quantityUpperBound, unit: line.unit, notes: line.notes))
  }

  /// What ``addRecipe(_:to:scaledBy:includeOnHand:)`` did.
  public struct RecipeAddition: Sendable {
    /// The items added to the list.
    public let added: [GroceryListItem]
    /// Ingredients left off because they are staples or in the pantry without an amount, by name.
    public let skipped: [String]
    /// Ingredients added whose pantry amount covers all the list needs of them now: `list
    /// show` hides their lines while that holds (Docs/SHOPPING.md, "Pantry").
    public let covered: [String]
  }

  /// Adds one item per ingredient line of a recipe, its quantities scaled when a
  /// `scale` is given (lines without a quantity stay as written). A line that counts
  /// packages keeps their size ("2 (14.5 oz) can"), so the list sums cans of one size.
  /// Lines for staples and for pantry ingredients without an amount are skipped unless
  /// `includeOnHand`; a pantry amount is taken off when the list is shown.
  /// - Throws: ``RepositoryError`` for an unknown list or recipe, or a scale out of range.
  public func addRecipe(
    _ recipeNameOrID: String, to listNameOrID: String, scaledBy scale: RecipeScale? = nil, includeOnHand: Bool = false
  ) throws -> RecipeAddition {
    try context.write { writer in
      let list = try require(listNameOrID, in: writer)
      var details = try RecipeRepository(context: context.bound(to: writer)).details(recipeNameOrID)
      if let scale { details = details.scaled(by: try scale.factor(recipe: details.recipe)) }
      let lines = try addLines(of: details, to: list, includeOnHand: includeOnHand, in: writer) { _ in context.newID() }
      return RecipeAddition(
        added: lines.added, skipped: lines.skipped, covered: try covered(on: list, among: lines.added, in: writer))
    }
  }

  /// What ``addLines(of:to:includeOnHand:in:id:)`` did.
  struct AddedLines {
    var added: [GroceryListItem] = []
    var skipped: [String] = []
    /// Lines whose item id was already taken (by an item on the list, or one removed from it).
    var alreadyTaken = 0
  }

  /// Inserts one item per line of a recipe, skipping staples and pantry ingredients without
  /// an amount unless `includeOnHand`.
  /// - Parameter id: the id of a line's item; an id the store already holds (live or
  ///   removed) is skipped and counted, which is how `add-plan` adds a meal once.
  func addLines(
    of details: RecipeDetails, to list: WeeklyList, includeOnHand: Bool, in writer: any StoreWriter,
    id: (RecipeIngredient) -> UUID
  ) throws -> AddedLines {
    var result = AddedLines()
    for line in details.lines {
      if !includeOnHand, let template = line.template, template.isStaple || (template.onHand && template.onHandAmount == nil) {
        if !result.skipped.contains(template.displayName) { result.skipped.append(template.displayName) }
        continue
      }
      let packageSize = IngredientLine.parse(line.ingredient.rawLine).packageSize
      do {
        result.added.append(
          try insertItem(
            line.template?.displayName ?? line.ingredient.rawLine,
            quantity: Self.amountText(line.ingredient.quantity, unit: line.ingredient.unit, packageSize: packageSize),
            source: .recipe, list: list, template: line.template?.id, recipe: details.recipe.id, id: id(line.ingredient), in: writer
          ))
      } catch StoreError.duplicateID {
        result.alreadyTaken += 1
      }
    }
    return result
  }

  /// The names of the ingredients among `items` whose line on the list the pantry covers.
  func covered(on list: WeeklyList, among items: [GroceryListItem], in reader: any StoreReader) throws -> [String] {
    let templates = Set(items.compactMap(\.template))
    guard !templates.isEmpty else { return [] }
    let shown = try shoppingList(of: list, in: reader, units: nil, includeDone: true)
    return shown.aisles.flatMap(\.lines).filter { line in
      line.isCoveredByPantry && line.template.map(templates.contains) == true
    }.map(\.name)
  }

  /// An amount as a list stores it — "2", "1-2 l", "1/3 cup", "1 1/2 cup", "2 (large)",
  /// "2 (14.5 oz) can" — or nil when there is none. Thirds and other fractions are
  /// written as fractions, so the list sums them exactly.
  static func amountText(
    _ quantity: Double?, upTo upperBound: Double? = nil, unit: String?, notes: String? = nil, packageSize: IngredientLine.Amount? = nil
  ) -> String? {
    var parts: [String] = []
    if let quantity { parts.append(([quantity] + (upperBound.map { [$0] } ?? [])).map(format).joined(separator: "-")) }
    if let packageSize, quantity != nil {
      parts.append("(" + format(packageSize.quantity) + (packageSize.unit.map { " " + $0 } ?? "") + ")")
    }
    if let unit { parts.append(unit) }
    if let notes { parts.append("(\(notes))") }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// "2", "0.5", "14.5"; a value with more than three decimals that is a simple fraction
  /// as one ("1/3", "2 1/3"); otherwise up to six significant digits.
  static func format(_ quantity: Double) -> String {
    if quantity.rounded() == quantity, abs(quantity) < 1e15 { return String(Int64(quantity)) }
    if (quantity * 1000).rounded() == quantity * 1000 { return String(format: "%g", quantity) }
    if let exact = Rational(approximating: quantity), exact.denominator <= 1000, exact.numerator > 0 {
      let whole = exact.floor
      let rest = exact.numerator - whole * exact.denominator
      return (whole > 0 ? "\(whole) " : "") + "\(rest)/\(exact.denominator)"
    }
    return String(format: "%g", quantity)
  }

  func insertItem(
    _ name: String, quantity: String?, source: ItemSource, list: WeeklyList, template: UUID?, recipe: UUID?, id: UUID? = nil,
    planAmount: String? = nil, in writer: any StoreWriter
  ) throws -> GroceryListItem {
    let count = try writer.count(RecordQuery(.groceryListItem, filters: [.references("weeklyList", list.id)], includeDeleted: true))
    let item = GroceryListItem(
      meta: context.newMeta(id: id ?? context.newID()), displayName: name, quantity: quantity, source: source, sortOrder: Int64(count),
      weeklyList: list.id, template: template, sourceRecipe: recipe, planAmount: planAmount
    )
    try writer.insert(item)
    return item
  }

  /// The list's items in the order they were added.
  public func items(of listNameOrID: String) throws -> [GroceryListItem] {
    try context.read { reader in try items(of: try require(listNameOrID, in: reader), in: reader) }
  }

  func items(of list: WeeklyList, in reader: any StoreReader) throws -> [GroceryListItem] {
    try reader.entities(
      GroceryListItem.self, RecordQuery(.groceryListItem, filters: [.references("weeklyList", list.id)], sort: [SortKey("sortOrder")]))
  }

  /// Marks every item for this ingredient on the list done (or not done).
  /// - Throws: ``RepositoryError/notFound(_:_:)`` when no item matches.
  public func check(_ itemName: String, on listNameOrID: String, done: Bool = true) throws -> [GroceryListItem] {
    try context.write { writer in
      let now = context.now()
      return try matchingItems(itemName, on: listNameOrID, in: writer).map { item in
        var item = item
        item.isCompleted = done
        item.dateCompleted = done ? now : nil
        try writer.save(item, at: now)
        return item
      }
    }
  }

  /// Removes every item for this ingredient from the list.
  public func removeItem(_ itemName: String, from listNameOrID: String) throws -> [GroceryListItem] {
    try context.write { writer in
      let items = try matchingItems(itemName, on: listNameOrID, in: writer)
      for item in items {
        try DeleteRules.delete(.groceryListItem, id: item.id, name: item.displayName, in: writer, at: context.now())
      }
      return items
    }
  }

  private func matchingItems(_ itemName: String, on listNameOrID: String, in reader: any StoreReader) throws -> [GroceryListItem] {
    let list = try require(listNameOrID, in: reader)
    let key = SemanticKey.canonicalIngredientName(try NameRules.clean(itemName, for: .groceryListItem))
    let template = try IngredientTemplateRepository(context: context).operations.find(itemName, in: reader)
    let matches = try items(of: list, in: reader).filter {
      ($0.template != nil && $0.template == template?.id) || SemanticKey.canonicalIngredientName($0.displayName) == key
    }
    guard !matches.isEmpty else { throw RepositoryError.notFound(.groceryListItem, itemName) }
    return matches
  }

  /// Marks the whole list completed (or open again).
  public func complete(_ listNameOrID: String, done: Bool = true) throws -> WeeklyList {
    try context.write { writer in
      var list = Self.keyed(try require(listNameOrID, in: writer))
      list.isCompleted = done
      try writer.save(list, at: context.now())
      return list
    }
  }

  /// Renames a list, refusing a name another list of its week already has (its key).
  /// - Throws: ``RepositoryError`` for an empty or overlong name, an unknown list, or
  ///   ``RepositoryError/renameCollision(_:newName:existingName:existingID:)``.
  public func rename(_ listNameOrID: String, to newName: String) throws -> WeeklyList {
    let cleaned = try NameRules.clean(newName, for: .weeklyList)
    guard !SemanticKey.normalizedName(cleaned).isEmpty else { throw RepositoryError.emptyName(.weeklyList) }
    return try context.write { writer in
      var list = try require(listNameOrID, in: writer)
      let key = SemanticKey.listKey(week: list.weekIdentifier, name: cleaned)
      if let holder = try writer.records(.weeklyList, semanticKey: key).first(where: { $0.id != list.id }) {
        throw RepositoryError.renameCollision(
          .weeklyList, newName: cleaned, existingName: holder.displayText, existingID: holder.id)
      }
      list.displayName = cleaned
      list = Self.keyed(list)
      try writer.save(list, at: context.now())
      return list
    }
  }

  /// Deletes a list with its items.
  public func delete(_ listNameOrID: String) throws -> WeeklyList {
    try context.write { writer in
      let list = try require(listNameOrID, in: writer)
      try DeleteRules.delete(.weeklyList, id: list.id, name: list.displayName, in: writer, at: context.now())
      return list
    }
  }
}
