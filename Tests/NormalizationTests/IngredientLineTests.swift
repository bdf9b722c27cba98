import Normalization
import Testing

/// One expected parse, written as `Expect("line", 2.5, "cup", "tomatoes", "tomato", notes: "diced")`.
struct Expect: Sendable, CustomTestStringConvertible {
  let line: String
  let quantity: Double?
  let upperBound: Double?
  let unit: String?
  let name: String
  let canonicalName: String
  let notes: String?

  init(
    _ line: String, _ quantity: Double?, to upperBound: Double? = nil, _ unit: String?, _ name: String,
    _ canonicalName: String, notes: String? = nil
  ) {
    self.line = line
    self.quantity = quantity
    self.upperBound = upperBound
    self.unit = unit
    self.name = name
    self.canonicalName = canonicalName
    self.notes = notes
  }

  var testDescription: String { "\"\(line)\"" }

  func check() {
    let parsed = IngredientLine.parse(line)
    #expect(Self.close(parsed.quantity, quantity), "quantity \(String(describing: parsed.quantity))")
    #expect(Self.close(parsed.quantityUpperBound, upperBound), "upper \(String(describing: parsed.quantityUpperBound))")
    #expect(parsed.unit == unit)
    #expect(parsed.name == name)
    #expect(parsed.canonicalName == canonicalName)
    #expect(parsed.notes == notes)
  }

  private static func close(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?): return abs(a - b) < 1e-9
    default: return false
    }
  }
}

@Suite("IngredientLine.parse")
struct IngredientLineTests {
  static let fractions: [Expect] = [
    Expect("2 ½ cups diced tomatoes (about 3)", 2.5, "cup", "tomatoes", "tomato", notes: "diced; about 3"),
    Expect("½ teaspoon salt", 0.5, "tsp", "salt", "salt"),
    Expect("⅓ cup sugar", 1.0 / 3, "cup", "sugar", "sugar"),
    Expect("⅔ cup milk", 2.0 / 3, "cup", "milk", "milk"),
    Expect("¼ tsp cayenne", 0.25, "tsp", "cayenne", "cayenne"),
    Expect("¾ cup flour", 0.75, "cup", "flour", "flour"),
    Expect("⅛ teaspoon nutmeg", 0.125, "tsp", "nutmeg", "nutmeg"),
    Expect("1½ cups stock", 1.5, "cup", "stock", "stock"),
    Expect("2⅔ cups oats", 2 + 2.0 / 3, "cup", "oats", "oat"),
    Expect("1 1/2 cups water", 1.5, "cup", "water", "water"),
    Expect("1-1/2 cups water", 1.5, "cup", "water", "water"),
    Expect("3/4 cup cream", 0.75, "cup", "cream", "cream"),
    Expect("1 ¼ cups sugar", 1.25, "cup", "sugar", "sugar"),
    Expect("1⁄2 cup rice", 0.5, "cup", "rice", "rice"),
    Expect("0.5 l water", 0.5, "l", "water", "water"),
    Expect(".5 kg beef", 0.5, "kg", "beef", "beef"),
    Expect("1,5 kg potatoes", 1.5, "kg", "potatoes", "potato"),
    Expect("1,000 g flour", 1000, "g", "flour", "flour"),
    // Issue 17: no number or unit in a name; an amount that is not a number goes to notes.
    Expect("1/0 cup sugar", nil, nil, "sugar", "sugar", notes: "1/0 cup"),
    Expect("２ eggs", 2, nil, "eggs", "egg"),
  ]

  static let ranges: [Expect] = [
    Expect("2-3 tbsp olive oil", 2, to: 3, "tbsp", "olive oil", "olive oil"),
    Expect("2 - 3 tbsp olive oil", 2, to: 3, "tbsp", "olive oil", "olive oil"),
    Expect("2–3 cloves garlic", 2, to: 3, "clove", "garlic", "garlic"),
    Expect("2—3 cloves garlic", 2, to: 3, "clove", "garlic", "garlic"),
    Expect("2 to 3 cups stock", 2, to: 3, "cup", "stock", "stock"),
    Expect("1 or 2 chillies", 1, to: 2, nil, "chillies", "chilli"),
    Expect("1/2-1 tsp chili flakes", 0.5, to: 1, "tsp", "chili flakes", "chili flake"),
    Expect("1 1/2 - 2 cups milk", 1.5, to: 2, "cup", "milk", "milk"),
    Expect("200-300g spinach", 200, to: 300, "g", "spinach", "spinach"),
    Expect("3-4 large potatoes", 3, to: 4, nil, "potatoes", "potato", notes: "large"),
    Expect("10-12 cherry tomatoes", 10, to: 12, nil, "cherry tomatoes", "cherry tomato"),
    Expect("½ – ¾ cup water", 0.5, to: 0.75, "cup", "water", "water"),
    Expect("2.5-3 kg pork shoulder", 2.5, to: 3, "kg", "pork shoulder", "pork shoulder"),
  ]

  static let units: [Expect] = [
    Expect("1 cup milk", 1, "cup", "milk", "milk"),
    Expect("2 cups milk", 2, "cup", "milk", "milk"),
    Expect("2 c. milk", 2, "cup", "milk", "milk"),
    Expect("2 C milk", 2, "cup", "milk", "milk"),
    Expect("1 tablespoon butter", 1, "tbsp", "butter", "butter"),
    Expect("2 Tablespoons butter", 2, "tbsp", "butter", "butter"),
    Expect("2 tbsp butter", 2, "tbsp", "butter", "butter"),
    Expect("2 Tbsp. butter", 2, "tbsp", "butter", "butter"),
    Expect("2 tbs butter", 2, "tbsp", "butter", "butter"),
    Expect("1 T sugar", 1, "tbsp", "sugar", "sugar"),
    Expect("1 T. sugar", 1, "tbsp", "sugar", "sugar"),
    Expect("1 t salt", 1, "tsp", "salt", "salt"),
    Expect("1 t. salt", 1, "tsp", "salt", "salt"),
    Expect("1 teaspoon salt", 1, "tsp", "salt", "salt"),
    Expect("2 tsps salt", 2, "tsp", "salt", "salt"),
    Expect("1 TSP salt", 1, "tsp", "salt", "salt"),
    Expect("8 fl oz cream", 8, "fl oz", "cream", "cream"),
    Expect("8 fl. oz. cream", 8, "fl oz", "cream", "cream"),
    Expect("2 fluid ounces rum", 2, "fl oz", "rum", "rum"),
    Expect("8 oz cheddar", 8, "oz", "cheddar", "cheddar"),
    Expect("8 ounces cheddar", 8, "oz", "cheddar", "cheddar"),
    Expect("1 lb ground beef", 1, "lb", "ground beef", "ground beef"),
    Expect("2 lbs. potatoes", 2, "lb", "potatoes", "potato"),
    Expect("1 pound carrots", 1, "lb", "carrots", "carrot"),
    Expect("1 pint cream", 1, "pint", "cream", "cream"),
    Expect("2 qt stock", 2, "quart", "stock", "stock"),
    Expect("1 gallon water", 1, "gallon", "water", "water"),
    Expect("200 g flour", 200, "g", "flour", "flour"),
    Expect("200 grams flour", 200, "g", "flour", "flour"),
    Expect("200g flour", 200, "g", "flour", "flour"),
    Expect("1.5kg potatoes", 1.5, "kg", "potatoes", "potato"),
    Expect("1 kilo onions", 1, "kg", "onions", "onion"),
    Expect("500 mg saffron", 500, "mg", "saffron", "saffron"),
    Expect("250 ml milk", 250, "ml", "milk", "milk"),
    Expect("250ml milk", 250, "ml", "milk", "milk"),
    Expect("250 mL milk", 250, "ml", "milk", "milk"),
    Expect("250 millilitres milk", 250, "ml", "milk", "milk"),
    Expect("1 litre stock", 1, "l", "stock", "stock"),
    Expect("2 liters stock", 2, "l", "stock", "stock"),
    Expect("1 L stock", 1, "l", "stock", "stock"),
    Expect("5 cl rum", 5, "cl", "rum", "rum"),
    Expect("2 dl cream", 2, "dl", "cream", "cream"),
    Expect("1 pinch salt", 1, "pinch", "salt", "salt"),
    Expect("2 dashes bitters", 2, "dash", "bitters", "bitters"),
    Expect("2 cloves garlic, minced", 2, "clove", "garlic", "garlic", notes: "minced"),
    Expect("1 can chickpeas", 1, "can", "chickpeas", "chickpea"),
    Expect("1 tin chickpeas", 1, "can", "chickpeas", "chickpea"),
    Expect("3 slices bacon", 3, "slice", "bacon", "bacon"),
    Expect("1 bunch scallions", 1, "bunch", "scallions", "spring onion"),
    Expect("2 sprigs thyme", 2, "sprig", "thyme", "thyme"),
    Expect("1 stick butter", 1, "stick", "butter", "butter"),
    Expect("2 pieces chicken", 2, "piece", "chicken", "chicken"),
    Expect("1 package cream cheese", 1, "package", "cream cheese", "cream cheese"),
    Expect("1 handful spinach", 1, "handful", "spinach", "spinach"),
    Expect("4 stalks celery", 4, "stalk", "celery", "celery"),
    Expect("1 head cauliflower", 1, "head", "cauliflower", "cauliflower"),
    Expect("2 cups of flour", 2, "cup", "flour", "flour"),
    Expect("2 cups", 2, "cup", "", ""),
    Expect("200g", 200, "g", "", ""),
    Expect("2 T-bone steaks", 2, nil, "t-bone steaks", "t-bone steak"),
    Expect("4 cloves", 4, nil, "cloves", "clove"),
    Expect("2 heaping tablespoons flour", 2, "tbsp", "flour", "flour", notes: "heaping"),
    Expect("2 large cloves garlic", 2, "clove", "garlic", "garlic", notes: "large"),
    Expect("1 dozen eggs", 1, "dozen", "eggs", "egg"),
    Expect("2 x 400g cans chopped tomatoes", 2, "can", "tomatoes", "tomato", notes: "400g; chopped"),
    Expect("1 14-ounce can coconut milk", 1, "can", "coconut milk", "coconut milk", notes: "14-ounce"),
    Expect("1 400 g jar passata", 1, "jar", "passata", "passata", notes: "400 g"),
  ]

  static let notes: [Expect] = [
    Expect("1 (14 oz) can tomatoes", 1, "can", "tomatoes", "tomato", notes: "14 oz"),
    Expect("1 (14 oz) can diced tomatoes, drained", 1, "can", "tomatoes", "tomato", notes: "14 oz; diced; drained"),
    Expect("2 cans (15 oz each) black beans", 2, "can", "black beans", "black bean", notes: "15 oz each"),
    Expect("1 onion, finely chopped", 1, nil, "onion", "onion", notes: "finely chopped"),
    Expect("1 large onion, finely chopped", 1, nil, "onion", "onion", notes: "large; finely chopped"),
    Expect("1 cup finely chopped onion", 1, "cup", "onion", "onion", notes: "finely chopped"),
    Expect("2 large eggs", 2, nil, "eggs", "egg", notes: "large"),
    Expect("3 large eggs, beaten", 3, nil, "eggs", "egg", notes: "large; beaten"),
    Expect("2 medium potatoes, peeled and cubed", 2, nil, "potatoes", "potato", notes: "medium; peeled and cubed"),
    Expect("2 peeled and diced potatoes", 2, nil, "potatoes", "potato", notes: "peeled and diced"),
    Expect("1/2 cup butter, melted", 0.5, "cup", "butter", "butter", notes: "melted"),
    Expect("1 cup (2 sticks) butter, softened", 1, "cup", "butter", "butter", notes: "2 sticks; softened"),
    Expect("1 cup cooked rice", 1, "cup", "rice", "rice", notes: "cooked"),
    Expect("1 cup packed brown sugar", 1, "cup", "brown sugar", "brown sugar", notes: "packed"),
    Expect("1 cup firmly packed brown sugar", 1, "cup", "brown sugar", "brown sugar", notes: "firmly packed"),
    Expect("2 tbsp chopped fresh parsley", 2, "tbsp", "fresh parsley", "fresh parsley", notes: "chopped"),
    Expect("1 tsp ground cumin", 1, "tsp", "ground cumin", "ground cumin"),
    Expect("freshly ground black pepper", nil, nil, "black pepper", "black pepper", notes: "freshly ground"),
    Expect("1 tsp crushed red pepper", 1, "tsp", "crushed red pepper", "crushed red pepper"),
    Expect("1 can crushed tomatoes", 1, "can", "tomatoes", "tomato", notes: "crushed"),
    Expect("500g minced beef", 500, "g", "minced beef", "ground beef"),
    Expect("3 minced garlic cloves", 3, nil, "garlic cloves", "garlic clove", notes: "minced"),
    Expect("2 boneless skinless chicken breasts", 2, nil, "chicken breasts", "chicken breast", notes: "boneless skinless"),
    Expect("1 cup grated parmesan (optional)", 1, "cup", "parmesan", "parmesan", notes: "grated; optional"),
    Expect("salt to taste", nil, nil, "salt", "salt", notes: "to taste"),
    Expect("Salt and pepper to taste", nil, nil, "salt and pepper", "salt and pepper", notes: "to taste"),
    Expect("salt, to taste", nil, nil, "salt", "salt", notes: "to taste"),
    Expect("parsley, for garnish", nil, nil, "parsley", "parsley", notes: "for garnish"),
    Expect("1 egg optional", 1, nil, "egg", "egg", notes: "optional"),
    Expect("1 cup sugar, divided", 1, "cup", "sugar", "sugar", notes: "divided"),
    Expect("2 cups flour plus more for serving", 2, "cup", "flour", "flour", notes: "plus more for serving"),
    Expect("about 2 cups flour", 2, "cup", "flour", "flour", notes: "about"),
    Expect("~2 cups flour", 2, "cup", "flour", "flour", notes: "about"),
    Expect("approx. 3 eggs", 3, nil, "eggs", "egg", notes: "approx"),
    Expect("1 2-inch piece ginger", 1, "piece", "ginger", "ginger", notes: "2-inch"),
    Expect("1 egg (at room temperature)", 1, nil, "egg", "egg", notes: "at room temperature"),
    Expect("4 ripe bananas, mashed", 4, nil, "bananas", "banana", notes: "ripe; mashed"),
    Expect("2 cups chopped", 2, "cup", "chopped", "chopped"),
    Expect("1 onion (chopped", 1, nil, "onion", "onion", notes: "chopped"),
    Expect("1 onion) chopped", 1, nil, "onion chopped", "onion chopped"),
    Expect("1 lb boneless, skinless chicken thighs", 1, "lb", "chicken thighs", "chicken thigh", notes: "boneless skinless"),
    Expect("1 large, ripe avocado, diced", 1, nil, "avocado", "avocado", notes: "large ripe; diced"),
    Expect("2 cups flour, sifted, divided", 2, "cup", "flour", "flour", notes: "sifted; divided"),
    Expect("1 (1-inch) piece ginger, peeled and grated", 1, "piece", "ginger", "ginger", notes: "1-inch; peeled and grated"),
    Expect("1 1/2 cups (360 ml) whole milk", 1.5, "cup", "whole milk", "whole milk", notes: "360 ml"),
    Expect("3 Tbsp unsalted butter, at room temperature", 3, "tbsp", "unsalted butter", "unsalted butter", notes: "at room temperature"),
    Expect("1 1/2 teaspoons kosher salt, plus more", 1.5, "tsp", "kosher salt", "kosher salt", notes: "plus more"),
    Expect("1/2 lb chicken, cut into 1-inch pieces", 0.5, "lb", "chicken", "chicken", notes: "cut into 1-inch pieces"),
    Expect(
      "1 (15-ounce) can black beans, rinsed and drained", 1, "can", "black beans", "black bean", notes: "15-ounce; rinsed and drained"),
    Expect("1,5 kg potatoes, peeled; cut 1,5 cm", 1.5, "kg", "potatoes", "potato", notes: "peeled; cut 1,5 cm"),
  ]

  static let quantityless: [Expect] = [
    Expect("", nil, nil, "", ""),
    Expect("   ", nil, nil, "", ""),
    Expect("salt", nil, nil, "salt", "salt"),
    Expect("Salt", nil, nil, "salt", "salt"),
    Expect("Fresh Basil", nil, nil, "fresh basil", "fresh basil"),
    Expect("pinch of salt", nil, "pinch", "salt", "salt"),
    Expect("Pinch salt", nil, "pinch", "salt", "salt"),
    Expect("a pinch of salt", 1, "pinch", "salt", "salt"),
    Expect("a dash of hot sauce", 1, "dash", "hot sauce", "hot sauce"),
    Expect("handful of spinach", nil, "handful", "spinach", "spinach"),
    Expect("head of lettuce", nil, "head", "lettuce", "lettuce"),
    Expect("cloves", nil, nil, "cloves", "clove"),
    Expect("cup cakes", nil, nil, "cup cakes", "cup cake"),
    // Issue 17: "juice of 1 lemon" counts lemons (was: no quantity, the line as the name).
    Expect("Juice of 1 lemon", 1, nil, "lemon", "lemon", notes: "juice"),
    Expect("2% milk", nil, nil, "2% milk", "2% milk"),
    Expect("7up", nil, nil, "7up", "7up"),
    Expect("- 2 cups flour", 2, "cup", "flour", "flour"),
    Expect("• 3 eggs", 3, nil, "eggs", "egg"),
  ]

  static let counts: [Expect] = [
    Expect("3 eggs", 3, nil, "eggs", "egg"),
    Expect("1 egg", 1, nil, "egg", "egg"),
    Expect("2 lemons", 2, nil, "lemons", "lemon"),
    Expect("12 cherry tomatoes", 12, nil, "cherry tomatoes", "cherry tomato"),
    Expect("two eggs", 2, nil, "eggs", "egg"),
    Expect("One onion", 1, nil, "onion", "onion"),
    Expect("3 Roma Tomatoes", 3, nil, "roma tomatoes", "roma tomato"),
    Expect("4 green onions", 4, nil, "green onions", "spring onion"),
    Expect("1 red capsicum", 1, nil, "red capsicum", "red capsicum"),
    Expect("6 Jalapeños", 6, nil, "jalapenos", "jalapeno"),
    Expect("2 bay leaves", 2, nil, "bay leaves", "bay leaf"),
    Expect("1\tcup\u{00A0}milk", 1, "cup", "milk", "milk"),
  ]

  static let all: [Expect] = Array([fractions, ranges, units, notes, quantityless, counts].joined())

  @Test(arguments: fractions)
  func parsesFractionsAndDecimals(_ expected: Expect) { expected.check() }

  @Test(arguments: ranges)
  func parsesRangesAsLowerAndUpperBound(_ expected: Expect) { expected.check() }

  @Test(arguments: units)
  func recognisesUnitsInEverySpelling(_ expected: Expect) { expected.check() }

  @Test(arguments: notes)
  func movesPreparationSizeAndAsidesToNotes(_ expected: Expect) { expected.check() }

  @Test(arguments: quantityless)
  func parsesLinesWithoutANumber(_ expected: Expect) { expected.check() }

  @Test(arguments: counts)
  func parsesCountedLinesWithoutAUnit(_ expected: Expect) { expected.check() }

  @Test func emptyLineGivesEmptyNameAndNothingElse() {
    #expect(
      IngredientLine.parse("")
        == IngredientLine(quantity: nil, quantityUpperBound: nil, unit: nil, name: "", canonicalName: "", notes: nil))
  }

  @Test func canonicalNameIsAlwaysTheCanonicalNameOfName() {
    for expected in Self.all {
      let parsed = IngredientLine.parse(expected.line)
      #expect(parsed.canonicalName == SemanticKey.canonicalIngredientName(parsed.name))
    }
  }
}
