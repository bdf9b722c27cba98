import Normalization
import Testing

/// Each example line of the forms issue 17 names, with the parse it must get: quantity
/// (and upper bound), unit, name, package size, equivalent, alternative. The wider table
/// is `RecipeLineTable`; this one is the issue's own wording, line for line.
struct IssueFormsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let line: String
    let quantity: Double?
    var upper: Double? = nil
    let unit: String?
    let name: String
    var package: String? = nil
    var equivalent: String? = nil
    var alternative: String? = nil
    var testDescription: String { "\"\(line)\"" }
  }

  static let cases: [Case] = [
    // multipliers
    Case(line: "3 x 120 g cod fillets", quantity: 3, unit: nil, name: "cod fillets", package: "120 g"),
    Case(line: "2 x 400 g tins chopped tomatoes", quantity: 2, unit: "can", name: "tomatoes", package: "400 g"),
    Case(line: "2x250ml cartons stock", quantity: 2, unit: "carton", name: "stock", package: "250 ml"),
    // ranges
    Case(line: "1-2 cups flour", quantity: 1, upper: 2, unit: "cup", name: "flour"),
    Case(line: "1 to 2 cups flour", quantity: 1, upper: 2, unit: "cup", name: "flour"),
    Case(line: "1-to-2 cups flour", quantity: 1, upper: 2, unit: "cup", name: "flour"),
    Case(line: "between 1 and 4 cups water", quantity: 1, upper: 4, unit: "cup", name: "water"),
    Case(line: "½–1 tsp salt", quantity: 0.5, upper: 1, unit: "tsp", name: "salt"),
    Case(line: "¼ cup-⅓ cup sugar", quantity: 0.25, upper: 1.0 / 3, unit: "cup", name: "sugar"),
    Case(line: "1 tbsp to 2 tbsp oil", quantity: 1, upper: 2, unit: "tbsp", name: "oil"),
    // number words
    Case(line: "twelve eggs", quantity: 12, unit: nil, name: "eggs"),
    Case(line: "ninety-nine raisins", quantity: 99, unit: nil, name: "raisins"),
    Case(line: "a dozen eggs", quantity: 1, unit: "dozen", name: "eggs"),
    Case(line: "half a lemon", quantity: 0.5, unit: nil, name: "lemon"),
    Case(line: "one and a half cups milk", quantity: 1.5, unit: "cup", name: "milk"),
    Case(line: "two thirds cup sugar", quantity: 2.0 / 3, unit: "cup", name: "sugar"),
    Case(line: "a couple of carrots", quantity: 2, unit: nil, name: "carrots"),
    Case(line: "a few sprigs thyme", quantity: nil, unit: "sprig", name: "thyme"),  // unsure: no quantity invented
    Case(line: "a pinch of salt", quantity: 1, unit: "pinch", name: "salt"),
    Case(line: "three to four sprigs rosemary", quantity: 3, upper: 4, unit: "sprig", name: "rosemary"),
    // package sizes
    Case(line: "2 (14.5-ounce) cans diced tomatoes", quantity: 2, unit: "can", name: "tomatoes", package: "14.5 oz"),
    Case(line: "1 (12 oz) bag frozen peas", quantity: 1, unit: "bag", name: "frozen peas", package: "12 oz"),
    Case(line: "two 400g tins tomatoes", quantity: 2, unit: "can", name: "tomatoes", package: "400 g"),
    // two measures of one amount
    Case(line: "1 cup / 240 ml stock", quantity: 1, unit: "cup", name: "stock", equivalent: "240 ml"),
    Case(line: "200g/7oz butter", quantity: 200, unit: "g", name: "butter", equivalent: "7 oz"),
    Case(line: "3 tablespoons (45 g) butter", quantity: 3, unit: "tbsp", name: "butter", equivalent: "45 g"),
    // added amounts and qualifiers
    Case(line: "1 cup plus 2 tablespoons flour", quantity: 1.125, unit: "cup", name: "flour"),
    Case(line: "¼ + ⅛ tsp salt", quantity: 0.375, unit: "tsp", name: "salt"),
    Case(line: "2 and ½ cups flour", quantity: 2.5, unit: "cup", name: "flour"),
    Case(line: "scant 1 cup sugar", quantity: 1, unit: "cup", name: "sugar"),
    Case(line: "heaping 1 tbsp cocoa", quantity: 1, unit: "tbsp", name: "cocoa"),
    Case(line: "generous pinch salt", quantity: nil, unit: "pinch", name: "salt"),
    Case(line: "about 2 cups rice", quantity: 2, unit: "cup", name: "rice"),
    // trailing and leading amounts, alternatives
    Case(line: "salt, 1 tsp", quantity: 1, unit: "tsp", name: "salt"),
    Case(line: "Butter: 120 g", quantity: 120, unit: "g", name: "butter"),
    Case(line: "juice of 1 lemon", quantity: 1, unit: nil, name: "lemon"),
    Case(line: "zest of 2 limes", quantity: 2, unit: nil, name: "limes"),
    Case(line: "2 tbsp butter or 1 tbsp oil", quantity: 2, unit: "tbsp", name: "butter", alternative: "1 tbsp oil"),
    // tokens: spaced fractions, units glued to numbers, decimal commas
    Case(line: "1 2 / 3 cups flour", quantity: 5.0 / 3, unit: "cup", name: "flour"),
    Case(line: "4oz cheese", quantity: 4, unit: "oz", name: "cheese"),
    Case(line: "1,5 kg potatoes", quantity: 1.5, unit: "kg", name: "potatoes"),
  ]

  static func text(_ amount: IngredientLine.Amount?) -> String? {
    amount.map { amount in
      let number = amount.quantity == amount.quantity.rounded() ? String(Int(amount.quantity)) : String(amount.quantity)
      return [number, amount.unit].compactMap { $0 }.joined(separator: " ")
    }
  }

  static func close(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a - b) < 1e-9
    default: false
    }
  }

  @Test(arguments: cases)
  func theIssuesFormParses(_ expected: Case) {
    let parsed = IngredientLine.parse(expected.line)
    #expect(Self.close(parsed.quantity, expected.quantity), "quantity \(String(describing: parsed.quantity))")
    #expect(Self.close(parsed.quantityUpperBound, expected.upper), "upper bound \(String(describing: parsed.quantityUpperBound))")
    #expect(parsed.unit == expected.unit)
    #expect(parsed.name == expected.name)
    #expect(Self.text(parsed.packageSize) == expected.package)
    #expect(Self.text(parsed.equivalent) == expected.equivalent)
    #expect(parsed.alternative == expected.alternative)
    // Never a number or a unit in the name.
    let digits = parsed.name.filter { $0.isNumber }
    #expect(digits.isEmpty, "\(parsed.name)")
  }

  @Test(arguments: [
    ("asparaguses", "asparagus"), ("hummuses", "hummus"), ("menus", "menu"), ("tofus", "tofu"), ("emus", "emu"),
    ("kudos", "kudos"), ("diabetes", "diabetes"), ("couscous", "couscous"), ("molasses", "molasses"), ("citrus", "citrus"),
    ("swiss chard", "swiss chard"),
  ])
  func theIssuesPluralsShareKeysWithTheirSingulars(_ word: String, _ key: String) {
    #expect(IngredientLine.parse(word).canonicalName == key)
  }
}
