import Foundation
public import Model
import Normalization
import Persistence

extension WeeklyListRepository {
  /// The list by aisle, one line per ingredient with summed, readable amounts.
  ///
  /// Reads the list's items, the templates they name and the categories those name
  /// (each once): its cost follows the list's size, not the store's.
  ///
  /// ```swift
  /// let list = try library.lists.shoppingList("Groceries", units: .metric)
  /// list.aisles.first?.lines.first?.amountText   // "1.97 l"
  /// ```
  /// - Parameters:
  ///   - units: the system to show amounts in; nil keeps each line in the system its
  ///     first amount was written in.
  ///   - includeDone: show lines whose items are all done, after the open ones of their
  ///     aisle; otherwise they are counted in ``ShoppingList/hiddenDoneLines``.
  public func shoppingList(_ listNameOrID: String, units: UnitPreference? = nil, includeDone: Bool = false) throws -> ShoppingList {
    try context.read { reader in
      let list = try require(listNameOrID, in: reader)
      let items = try reader.entities(
        GroceryListItem.self, RecordQuery(.groceryListItem, filters: [.references("weeklyList", list.id)], sort: [SortKey("sortOrder")]))
      var templates: [UUID: IngredientTemplate] = [:]
      for id in Set(items.compactMap(\.template)) {
        if let template = try reader.entity(IngredientTemplate.self, id: id) { templates[id] = template }
      }
      // Only the categories the templates name, in the aisle order (the order a listing
      // of every category would give them).
      let aisleOrder = RecordQuery(.category, sort: [SortKey("sortOrder"), SortKey("displayName")])
      let categoryIDs = Set(templates.values.compactMap(\.category))
      let categories = try reader.records(.category, ids: Array(categoryIDs)).filter(aisleOrder.matches)
        .sorted(by: aisleOrder.areInIncreasingOrder).map { try Category(record: $0) }
      return Self.arrange(list: list, items: items, templates: templates, categories: categories, units: units, includeDone: includeDone)
    }
  }

  /// Groups items into lines and lines into aisles: the pure part of ``shoppingList(_:units:includeDone:)``.
  static func arrange(
    list: WeeklyList, items: [GroceryListItem], templates: [UUID: IngredientTemplate], categories: [Category], units: UnitPreference?,
    includeDone: Bool
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
    for key in order {
      guard let members = groups[key], let first = members.first else { continue }
      let template = first.template.flatMap { templates[$0] }
      let line = line(members, template: template, units: units)
      if line.isCompleted && !includeDone {
        hidden += 1
        continue
      }
      let category = template?.category.flatMap { known.contains($0) ? $0 : nil }
      linesByCategory[category, default: []].append(line)
    }
    let sections: [Category?] = categories.map { Optional($0) } + [nil]
    let aisles = sections.compactMap { category -> ShoppingList.Aisle? in
      guard let lines = linesByCategory[category?.id], !lines.isEmpty else { return nil }
      // Done lines sink below the open ones; each part keeps the order items were added.
      return ShoppingList.Aisle(category: category, lines: lines.filter { !$0.isCompleted } + lines.filter(\.isCompleted))
    }
    return ShoppingList(list: list, aisles: aisles, hiddenDoneLines: hidden)
  }

  private static func line(_ items: [GroceryListItem], template: IngredientTemplate?, units: UnitPreference?) -> ShoppingList.Line {
    let canonical = template?.canonicalName ?? SemanticKey.canonicalIngredientName(items.first?.displayName ?? "")
    let density = template?.gramsPerCup.flatMap { Rational(approximating: $0) } ?? StapleDensity.gramsPerCup(canonicalName: canonical)
    let total = AmountTotal.sum(texts: items.map(\.quantity), gramsPerCup: density)
    let system = units.map(Self.system)
    let amounts = total.parts.map { part in
      let readable = part.readable(in: system)
      return ShoppingList.Amount(
        exact: readable.quantity.description, exactUpperBound: readable.upperBound?.description, value: readable.quantity.doubleValue,
        unit: readable.unit, packageSize: part.packageSize.map { Self.sizeText($0) }, text: readable.text)
    }
    return ShoppingList.Line(
      name: template?.displayName ?? items.first?.displayName ?? "", template: template?.id, amountText: total.text(in: system),
      amounts: amounts, unreadAmounts: total.unread, itemsWithoutAmount: total.withoutAmount, isCompleted: items.allSatisfy(\.isCompleted),
      items: items)
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
