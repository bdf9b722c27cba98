import Dispatch
import Normalization
import Synchronization
import Testing

@Suite("canonicalIngredientName")
struct CanonicalNameTests {
  static let cases: [(input: String, expected: String)] = [
    ("Roma Tomatoes", "roma tomato"),
    ("tomatoes", "tomato"),
    ("Tomato", "tomato"),
    ("  TOMATOES ", "tomato"),
    ("Eggs", "egg"),
    ("Potatoes", "potato"),
    ("Bay Leaves", "bay leaf"),
    ("Blueberries", "blueberry"),
    ("Geese", "goose"),
    ("Asparagus", "asparagus"),
    ("Hummus", "hummus"),
    ("Rice", "rice"),
    ("Molasses", "molasses"),
    ("Jalapeños", "jalapeno"),
    ("Crème Fraîche", "creme fraiche"),
    ("Green Beans", "green bean"),
    ("Cloves of Garlic", "clove of garlic"),
    ("", ""),
    (" \t", ""),
    // Aliases
    ("scallions", "spring onion"),
    ("Scallion", "spring onion"),
    ("Green Onions", "spring onion"),
    ("green onion", "spring onion"),
    ("Spring Onions", "spring onion"),
    ("capsicum", "bell pepper"),
    ("Capsicums", "bell pepper"),
    ("Garbanzo Beans", "chickpea"),
    ("garbanzos", "chickpea"),
    ("chick peas", "chickpea"),
    ("Chickpeas", "chickpea"),
    ("Aubergines", "eggplant"),
    ("courgettes", "zucchini"),
    ("Coriander Leaves", "cilantro"),
    ("coriander leaf", "cilantro"),
    ("Beetroot", "beet"),
    ("icing sugar", "powdered sugar"),
    ("Plain Flour", "all-purpose flour"),
    ("all purpose flour", "all-purpose flour"),
    ("Yoghurt", "yogurt"),
    ("pak choi", "bok choy"),
    // Words that merely contain an alias are not aliased
    ("red capsicum", "red capsicum"),
    ("scallion pancakes", "scallion pancake"),
    ("coriander", "coriander"),
  ]

  @Test(arguments: cases)
  func canonicalizesIngredientName(input: String, expected: String) {
    #expect(SemanticKey.canonicalIngredientName(input) == expected)
  }

  static let customAliasCases: [(input: String, aliases: [String: String], expected: String)] = [
    ("tomatoes", ["tomato": "love apple"], "love apple"),
    ("Love Apples", ["Tomatoes": "Love Apples"], "love apple"),
    ("rocket", ["rocket": "rocket"], "rocket"),
    ("scallions", ["scallion": "green onion"], "spring onion"),
    ("spring onions", ["spring onion": "scallion"], "scallion"),
    ("green onions", ["spring onion": "scallion"], "scallion"),
    ("a", ["a": "b", "b": "c"], "c"),
    ("b", ["a": "b", "b": "a"], "a"),
    ("a", ["a": "b", "b": "a"], "a"),
    ("courgette", ["zucchini": "courgette"], "courgette"),
    ("Kale", ["": "x", "kale": " "], "kale"),
  ]

  @Test(arguments: customAliasCases)
  func customAliasesAreCanonicalizedAndWin(input: String, aliases: [String: String], expected: String) {
    #expect(SemanticKey.canonicalIngredientName(input, aliases: aliases) == expected)
  }

  /// The keys of recent names are kept for the next fold of the same name
  /// (`RecentKeys`): what is kept never answers for another name or for a call with aliases.
  @Test func theKeptKeysAnswerOnlyForTheSameNameWithoutAliases() {
    let names = ["Tomatoes", "tomatoes", "Tomatoes ", "Scallions", "Tomatoes", "Tomatoes"]
    let expected = ["tomato", "tomato", "tomato", "spring onion", "tomato", "tomato"]
    #expect(names.map { SemanticKey.canonicalIngredientName($0) } == expected)
    #expect(SemanticKey.canonicalIngredientName("Tomatoes", aliases: ["tomato": "love apple"]) == "love apple")
    #expect(SemanticKey.canonicalIngredientName("Tomatoes") == "tomato")
    // From several threads at once, each name still gets its own key.
    let keys = (0..<200).map { index in index.isMultiple(of: 2) ? "tomato" : "spring onion" }
    let computed = Mutex([String](repeating: "", count: 200))
    DispatchQueue.concurrentPerform(iterations: 200) { index in
      let key = SemanticKey.canonicalIngredientName(index.isMultiple(of: 2) ? "Tomatoes" : "Green Onions")
      computed.withLock { $0[index] = key }
    }
    #expect(computed.withLock { $0 } == keys)
  }

  @Test func defaultAliasesIncludeTheRequiredPairs() {
    let aliases = SemanticKey.defaultAliases
    #expect(aliases["scallion"] == "spring onion")
    #expect(aliases["green onion"] == "spring onion")
    #expect(aliases["capsicum"] == "bell pepper")
    #expect(aliases["garbanzo bean"] == "chickpea")
    #expect(aliases["aubergine"] == "eggplant")
    #expect(aliases["courgette"] == "zucchini")
    #expect(aliases["coriander leaf"] == "cilantro")
  }

  @Test func everyDefaultAliasValueIsFinal() {
    for (key, value) in SemanticKey.defaultAliases {
      #expect(SemanticKey.canonicalIngredientName(key) == value)
      #expect(SemanticKey.canonicalIngredientName(value) == value)
    }
  }
}
