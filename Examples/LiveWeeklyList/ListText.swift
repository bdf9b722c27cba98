import Model
import Repositories

/// The list as the terminal shows it: a heading, then each aisle with its lines, checked
/// lines marked `[x]`.
///
///     Groceries (2024-W50): 3 lines, 1 done
///     Produce
///       [ ] tomatoes  2 lb
///       [x] basil
enum ListText {
  static func render(_ shopping: ShoppingList) -> String {
    let lines = shopping.aisles.flatMap(\.lines)
    var text = "\(shopping.list.displayName) (\(shopping.list.weekIdentifier)): \(lines.count) line\(lines.count == 1 ? "" : "s"), "
    text += "\(lines.filter(\.isCompleted).count) done"
    if lines.isEmpty { text += "\n  (empty: add ITEM puts something on it)" }
    for aisle in shopping.aisles {
      text += "\n" + (aisle.category?.displayName ?? "Other")
      for line in aisle.lines {
        text += "\n  [\(line.isCompleted ? "x" : " ")] \(line.name)" + (line.amountText.isEmpty ? "" : "  \(line.amountText)")
      }
    }
    return text
  }
}
