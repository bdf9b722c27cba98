import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Amounts a user types — a pantry amount, a list item's `--quantity`, an item written as
/// "2 eggs" — are refused when written with a sign (every dash, minus and plus, glued to the
/// number or not), and a pantry amount is refused when it does not start with a number.
/// Each refusal names the field and the value and writes nothing.
@Suite("Typed amounts")
struct TypedAmountTests {
  /// Signs a number may be typed with: ASCII, the minus sign, the dashes, and their small,
  /// full-width, superscript and subscript forms.
  static let signs = [
    "-", "\u{2212}", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{FE58}", "\u{FE63}", "\u{FF0D}",
    "\u{207B}", "\u{208B}", "+", "\u{FF0B}", "\u{FE62}", "\u{207A}",
  ]
  static let numbers = ["2", "4", "0.5", ".5", "½", "1 ½", "\u{FF12}"]

  /// Every sign before every number, glued or after a space.
  static var signed: [String] {
    signs.flatMap { sign in numbers.flatMap { number in ["\(sign)\(number)", "\(sign) \(number)"] } }
  }

  @Test(arguments: TestBackend.allCases)
  func aListItemWrittenWithASignedAmountIsRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.lists.create("Groceries", week: "2026-W47")
    for amount in Self.signed {
      let text = "\(amount) eggs"
      let error = try expectUnchanged(library) { _ = try library.lists.addItem(text, to: "Groceries") }
      #expect(
        error?.description.hasPrefix("item '\(text)': the amount must be a number above 0") == true, "\(text): \(String(describing: error))"
      )
    }
    // With --quantity the item's text is its name as written.
    #expect(try library.lists.addItem("-2 eggs", quantity: "1", to: "Groceries").displayName == "-2 eggs")
    #expect(try library.lists.addItem("2 eggs", to: "Groceries").quantity == "2")
  }

  @Test(arguments: TestBackend.allCases)
  func aSignedQuantityIsRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.lists.create("Groceries", week: "2026-W47")
    for amount in Self.signed.flatMap({ [$0, "\($0) l"] }) {
      let error = try expectUnchanged(library) { _ = try library.lists.addItem("milk", quantity: amount, to: "Groceries") }
      #expect(error?.description.hasPrefix("quantity '\(amount)': the amount must be a number above 0") == true, "\(amount)")
    }
    // A dash inside an amount is a range, not a sign.
    #expect(try library.lists.addItem("milk", quantity: "1-2 l", to: "Groceries").quantity == "1-2 l")
  }

  @Test(arguments: TestBackend.allCases)
  func aSignedPantryAmountIsRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    for amount in Self.signed.flatMap({ [$0, "\($0) g"] }) {
      let error = try expectUnchanged(library) { _ = try library.pantry.set("rice", amount: amount) }
      #expect(error?.description.hasPrefix("amount '\(amount)': the amount must be a number above 0") == true, "\(amount)")
    }
  }

  /// Word amounts read a recipe line ("a pinch of salt"), but a pantry amount is a number.
  @Test(arguments: TestBackend.allCases)
  func aPantryAmountThatDoesNotStartWithANumberIsRefused(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let words = ["a", "an", "two", "half", "some", "lots", "handful", "a couple", "few", "several", "dozen"]
    let units = ["", " handful", " pinch", " cup", " cups", " dozen", " g", " ounce", " can"]
    for word in words {
      for unit in units {
        let amount = word + unit
        let error = try expectUnchanged(library) { _ = try library.pantry.set("rice", amount: amount) }
        #expect(
          error?.description
            == "amount '\(amount)': does not start with a number; give a number and an optional unit, e.g. 500 g, 6, 2 cups, 1 ½ lb",
          "\(amount): \(String(describing: error))")
      }
    }
    for amount in ["500 g", "6", "2 cups", "1 ½ lb", "1 dozen", "½ cup", "0.5 l"] {
      #expect(try library.pantry.set("rice", amount: amount).onHandAmount == amount)
    }
    // A recipe line keeps its word amount.
    guard case .created = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["a pinch of salt", "a handful of basil"]))
    else {
      Issue.record("a recipe with word amounts was refused")
      return
    }
  }
}
