import Foundation
public import Model
import Normalization
import Persistence

extension WeeklyListRepository {
  /// The list by aisle, one line per ingredient with summed, readable amounts, less
  /// what the pantry holds of it.
  ///
  /// Reads the list's items, the templates they name and the categories those name
  /// (each once): its cost follows the list's size, not the store's.
  ///
  /// ```swift
  /// let list = try library.lists.shoppingList("Groceries", units: .metric)
  /// list.aisles.first?.lines.first?.amountText   // "1.97 l"
  /// ```
  /// - Parameters:
  ///   - listNameOrID: the list's name (of the current week) or id.
  ///   - units: the system to show amounts in; nil keeps each line in the system its
  ///     first amount was written in.
  ///   - includeDone: show lines whose items are all done, and lines the pantry covers,
  ///     after the open ones of their aisle; otherwise they are counted in
  ///     ``ShoppingList/hiddenDoneLines`` and ``ShoppingList/coveredLines``.
  ///   - store: a store name or id whose aisle order to follow; nil: the list's own store,
  ///     else the default order (the categories' own).
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown list or store.
  public func shoppingList(
    _ listNameOrID: String, units: UnitPreference? = nil, includeDone: Bool = false, store: String? = nil
  ) throws -> ShoppingList {
    try context.read { reader in
      let list = try require(listNameOrID, in: reader)
      let shop = try store.map { try GroceryStoreRepository(context: context).require($0, in: reader) }
      return try shoppingList(of: list, in: reader, units: units, includeDone: includeDone, store: shop)
    }
  }

  func shoppingList(
    of list: WeeklyList, in reader: any StoreReader, units: UnitPreference?, includeDone: Bool, store: GroceryStore? = nil
  ) throws -> ShoppingList {
    let items = try reader.entities(
      GroceryListItem.self, RecordQuery(.groceryListItem, filters: [.references("weeklyList", list.id)], sort: [SortKey("sortOrder")]))
    var templates: [UUID: IngredientTemplate] = [:]
    for id in Set(items.compactMap(\.template)) {
      if let template = try reader.entity(IngredientTemplate.self, id: id) { templates[id] = template }
    }
    // Only the categories the templates name, in the aisle order (the order a listing
    // of every category would give them), then as the store walks them.
    let aisleOrder = RecordQuery(.category, sort: [SortKey("sortOrder"), SortKey("displayName")])
    let categoryIDs = Set(templates.values.compactMap(\.category))
    let categories = try reader.records(.category, ids: Array(categoryIDs)).filter(aisleOrder.matches)
      .sorted(by: aisleOrder.areInIncreasingOrder).map { try Category(record: $0) }
    let shop = try store ?? list.store.flatMap { try reader.entity(GroceryStore.self, id: $0) }
    return Self.arrange(
      list: list, items: items, templates: templates, categories: GroceryStoreRepository.ordered(categories, by: shop), store: shop,
      units: units, includeDone: includeDone)
  }

  /// Groups items into lines and lines into aisles: the pure part of ``shoppingList(_:units:includeDone:store:)``.
  static func arrange(
    list: WeeklyList, items: [GroceryListItem], templates: [UUID: IngredientTemplate], categories: [Category], store: GroceryStore?,
    units: UnitPreference?, includeDone: Bool
  ) -> ShoppingList {
    var order: [String] = []
    var groups: [String: [GroceryListItem]] = [:]
    for item in items {
      let template = item.template.flatMap { templates[$0] }
      // One ingredient, whether an item names its template or only its name.
      let key = template?.canonicalName ?? SemanticKey.canonicalIngredientName(item.displayName)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(item)
    }
    let known = Set(categories.map(\.id))
    var linesByCategory: [UUID?: [ShoppingList.Line]] = [:]
    var hidden = 0
    var covered = 0
    for key in order {
      guard let members = groups[key], let first = members.first else { continue }
      let template = first.template.flatMap { templates[$0] }
      let line = line(members, template: template, units: units)
      if line.isCompleted && !includeDone {
        hidden += 1
        continue
      }
      if line.isCoveredByPantry && !includeDone {
        covered += 1
        continue
      }
      let category = template?.category.flatMap { known.contains($0) ? $0 : nil }
      linesByCategory[category, default: []].append(line)
    }
    let sections: [Category?] = categories.map { Optional($0) } + [nil]
    let aisles = sections.compactMap { category -> ShoppingList.Aisle? in
      guard let lines = linesByCategory[category?.id], !lines.isEmpty else { return nil }
      // Done lines sink below the open ones; each part keeps the order items were added.
      let open = lines.filter { !$0.isCompleted && !$0.isCoveredByPantry }
      return ShoppingList.Aisle(category: category, lines: open + lines.filter { $0.isCompleted || $0.isCoveredByPantry })
    }
    return ShoppingList(list: list, store: store, aisles: aisles, hiddenDoneLines: hidden, coveredLines: covered)
  }

  private static func line(_ items: [GroceryListItem], template: IngredientTemplate?, units: UnitPreference?) -> ShoppingList.Line {
    let canonical = template?.canonicalName ?? SemanticKey.canonicalIngredientName(items.first?.displayName ?? "")
    let density = template?.gramsPerCup.flatMap { Rational(approximating: $0) } ?? StapleDensity.gramsPerCup(canonicalName: canonical)
    let needed = AmountTotal.sum(texts: items.map(\.quantity), gramsPerCup: density)
    let system = units.map(Self.system)
    // The pantry's amount comes off what the line needs, where the two compare.
    var total = needed
    var pantry: ShoppingList.Pantry?
    if let template, template.onHand, let onHand = template.onHandAmount {
      if let have = ExactAmount.parse(onHand) {
        let subtraction = needed.subtracting(onHand: have, gramsPerCup: density)
        if subtraction.isComparable { total = subtraction.remaining }
        pantry = ShoppingList.Pantry(
          onHand: onHand, needed: needed.text(in: system), isComparable: subtraction.isComparable, isCovered: subtraction.isCovered)
      } else {
        pantry = ShoppingList.Pantry(onHand: onHand, needed: needed.text(in: system), isComparable: false, isCovered: false)
      }
    }
    let amounts = total.parts.map { part in
      let readable = part.readable(in: system)
      return ShoppingList.Amount(
        exact: readable.quantity.description, exactUpperBound: readable.upperBound?.description, value: readable.quantity.doubleValue,
        unit: readable.unit, packageSize: part.packageSize.map { Self.sizeText($0) }, text: readable.text)
    }
    return ShoppingList.Line(
      name: template?.displayName ?? items.first?.displayName ?? "", template: template?.id, amountText: total.text(in: system),
      amounts: amounts, unreadAmounts: total.unread, itemsWithoutAmount: total.withoutAmount, isCompleted: items.allSatisfy(\.isCompleted),
      pantry: pantry, items: items)
  }

  private static func system(_ preference: UnitPreference) -> MeasureSystem {
    switch preference {
    case .metric: .metric
    case .us: .us
    }
  }

  private static func sizeText(_ size: ExactAmount.Size) -> String {
    [size.quantity.description, size.unit].compactMap { $0 }.joined(separator: " ")
  }
}
