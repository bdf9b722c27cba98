public import Foundation
public import Model

/// A weekly list as a shopper walks the store: one line per ingredient with its amounts
/// summed less what the pantry holds, grouped by aisle (the ingredient's category) in the
/// store's order (the categories' own by default), uncategorized last. Made by
/// ``WeeklyListRepository/shoppingList(_:units:includeDone:store:)``.
///
/// Amounts of one dimension add up across units and systems, exactly; counts add up by
/// unit; volume and mass of one ingredient combine only through its density. The rules
/// and the rounding of ``Line/amountText`` are in Docs/SHOPPING.md.
public struct ShoppingList: Sendable {
  /// The weekly list shown.
  public let list: WeeklyList
  /// The store whose aisle order the list follows; nil for the default order.
  public let store: GroceryStore?
  /// The aisles with at least one line shown, in store order.
  public let aisles: [Aisle]
  /// Lines left out because every item on them is done (shown with `includeDone`).
  public let hiddenDoneLines: Int
  /// Lines left out because the pantry holds all they need (shown with `includeDone`).
  public let coveredLines: Int

  /// The lines of one category; `category` is nil for ingredients without one.
  public struct Aisle: Sendable {
    /// The aisle's grocery category; nil for ingredients without one.
    public let category: Category?
    /// Open lines in the order their first item was added, then done ones.
    public let lines: [Line]
  }

  /// One ingredient on the list.
  public struct Line: Sendable {
    /// The ingredient's name (its template's), or the first item's name as written.
    public let name: String
    /// The id of the line's ingredient template; nil for items without one.
    public let template: UUID?
    /// The summed amounts as a cook reads them: "1 ½ cups", "7 cloves", "2 cups + 500 g";
    /// empty when no item had an amount.
    public let amountText: String
    /// Each summed amount, exactly.
    public let amounts: [Amount]
    /// Amounts that could not be read, as written ("a handful").
    public let unreadAmounts: [String]
    /// Items on this line without an amount.
    public let itemsWithoutAmount: Int
    /// Every item on the line is done.
    public let isCompleted: Bool
    /// What the pantry holds of the ingredient, when it has an amount: ``amountText`` and
    /// ``amounts`` are then what is needed beyond it.
    public let pantry: Pantry?
    /// The list items summed on this line.
    public let items: [GroceryListItem]

    /// The pantry holds all the line needs.
    public var isCoveredByPantry: Bool { pantry?.isCovered ?? false }
  }

  /// The pantry's amount of a line's ingredient, and what it did to the line.
  public struct Pantry: Sendable, Hashable {
    /// The amount on hand, as written ("500 g").
    public let onHand: String
    /// What the line's items need before the pantry is taken off ("750 g").
    public let needed: String
    /// Whether the amount on hand could be compared with what is needed (same dimension,
    /// a density, a count); when not, the line shows everything it needs.
    public let isComparable: Bool
    /// The amount on hand covers everything the line needs.
    public let isCovered: Bool

    /// "500 g on hand, 750 g needed" or "on hand: 3 cans, not comparable with 2 cups".
    public var note: String {
      isComparable
        ? "\(onHand) on hand, \(needed) needed" : "on hand: \(onHand), not comparable with \(needed.isEmpty ? "no amount" : needed)"
    }
  }

  /// One summed amount in the unit it is shown in.
  public struct Amount: Sendable, Hashable {
    /// The exact sum as a fraction in lowest terms ("25/3", "7").
    public let exact: String
    /// The upper end of a range, exactly, when the amounts had one.
    public let exactUpperBound: String?
    /// The nearest double of ``exact``.
    public let value: Double
    /// The shown unit ("cup", "kg", "clove"); nil for a plain count.
    public let unit: String?
    /// The size of each package, exactly ("29/2 oz" for 14.5 oz cans), for counted packages.
    public let packageSize: String?
    /// As shown: "8 ⅓ cups".
    public let text: String
  }
}
