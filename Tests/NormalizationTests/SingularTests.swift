import Normalization
import Testing

@Suite("Inflection.singular")
struct SingularTests {
  static let regular: [(plural: String, singular: String)] = [
    ("apples", "apple"), ("eggs", "egg"), ("carrots", "carrot"), ("onions", "onion"),
    ("olives", "olive"), ("chives", "chive"), ("cloves", "clove"), ("endives", "endive"),
    ("cheeses", "cheese"), ("sauces", "sauce"), ("spices", "spice"), ("oranges", "orange"),
    ("grapes", "grape"), ("dates", "date"), ("tamales", "tamale"), ("peas", "pea"),
    ("figs", "fig"), ("ribs", "rib"), ("tacos", "taco"), ("avocados", "avocado"),
    ("bananas", "banana"), ("turkeys", "turkey"), ("noodles", "noodle"), ("lentils", "lentil"),
    ("sizes", "size"), ("houses", "house"), ("kiwis", "kiwi"), ("paninis", "panini"),
  ]
  static let sibilantEs: [(plural: String, singular: String)] = [
    ("dishes", "dish"), ("radishes", "radish"), ("squashes", "squash"), ("boxes", "box"),
    ("foxes", "fox"), ("peaches", "peach"), ("sandwiches", "sandwich"), ("bunches", "bunch"),
    ("pinches", "pinch"), ("glasses", "glass"), ("fizzes", "fizz"),
  ]
  static let cheExceptions: [(plural: String, singular: String)] = [
    ("quiches", "quiche"), ("brioches", "brioche"), ("ganaches", "ganache"),
  ]
  static let oes: [(plural: String, singular: String)] = [
    ("tomatoes", "tomato"), ("potatoes", "potato"), ("mangoes", "mango"), ("heroes", "hero"),
    ("sloes", "sloe"), ("shoes", "shoe"), ("canoes", "canoe"),
  ]
  static let ies: [(plural: String, singular: String)] = [
    ("berries", "berry"), ("cherries", "cherry"), ("strawberries", "strawberry"),
    ("anchovies", "anchovy"), ("fries", "fry"), ("stir-fries", "stir-fry"), ("candies", "candy"),
    ("cookies", "cookie"), ("brownies", "brownie"), ("smoothies", "smoothie"),
    ("veggies", "veggie"), ("pies", "pie"), ("potpies", "potpie"), ("bries", "brie"),
    ("chillies", "chilli"), ("chilies", "chili"),
  ]
  static let ves: [(plural: String, singular: String)] = [
    ("leaves", "leaf"), ("bayleaves", "bayleaf"), ("halves", "half"), ("knives", "knife"),
    ("loaves", "loaf"), ("meatloaves", "meatloaf"), ("calves", "calf"), ("wolves", "wolf"),
    ("shelves", "shelf"), ("lives", "life"), ("wives", "wife"), ("hooves", "hoof"),
    ("scarves", "scarf"), ("thieves", "thief"),
  ]
  static let irregular: [(plural: String, singular: String)] = [
    ("geese", "goose"), ("mice", "mouse"), ("teeth", "tooth"), ("feet", "foot"),
    ("children", "child"), ("oxen", "ox"), ("men", "man"), ("women", "woman"),
    ("people", "person"), ("fungi", "fungus"), ("cacti", "cactus"), ("octopuses", "octopus"),
    ("buses", "bus"), ("quizzes", "quiz"), ("mousses", "mousse"), ("citruses", "citrus"),
  ]
  /// Issue 17: -us plurals, -u nouns, and singulars in -s that keep their s.
  static let usAndU: [(plural: String, singular: String)] = [
    ("asparaguses", "asparagus"), ("hummuses", "hummus"), ("couscouses", "couscous"), ("cactuses", "cactus"),
    ("walruses", "walrus"), ("lotuses", "lotus"), ("houses", "house"), ("blouses", "blouse"), ("excuses", "excuse"),
    ("menus", "menu"), ("tofus", "tofu"), ("emus", "emu"), ("gnus", "gnu"), ("haikus", "haiku"), ("kudzus", "kudzu"),
    ("muumuus", "muumuu"), ("gateaus", "gateau"), ("tiramisus", "tiramisu"), ("bayous", "bayou"),
  ]
  static let keepTheirS: [String] = [
    "kudos", "diabetes", "couscous", "molasses", "citrus", "swiss", "hummus", "asparagus", "bonus", "cactus",
    "walrus", "octopus", "hibiscus", "virus", "fungus", "famous", "delicious", "pathos",
  ]

  @Test(arguments: usAndU)
  func readsUsPluralsAndUNounsByRule(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
    #expect(Inflection.singular(singular) == singular)
  }

  @Test(arguments: keepTheirS)
  func keepsTheSOfSingularsInS(word: String) {
    #expect(Inflection.singular(word) == word)
  }

  @Test func pluralsShareKeysWithTheirSingulars() {
    for (plural, singular) in Self.usAndU {
      #expect(SemanticKey.canonicalIngredientName(plural) == SemanticKey.canonicalIngredientName(singular), "\(plural)")
    }
    #expect(SemanticKey.canonicalIngredientName("Swiss Chard") == "swiss chard")
    #expect(SemanticKey.canonicalIngredientName("swiss chards") == "swiss chard")
  }

  static let unchanged: [String] = [
    "asparagus", "hummus", "rice", "molasses", "couscous", "swiss", "bass", "grass", "glass",
    "lemongrass", "watercress", "lettuce", "series", "species", "fish", "sheep", "shrimp",
    "salmon", "trout", "cod", "tuna", "squid", "deer", "bison", "citrus", "hibiscus", "octopus",
    "haggis", "brussels", "grits", "bitters", "greens", "gras", "news",
    "tomato", "berry", "leaf", "goose", "basil", "garlic", "cookie", "cheese", "pie",
    "gas", "jus", "yes", "baker's", "", "crème", "Tomatoes", "7up", "σοφοσ",
  ]

  static let allPlurals: [(plural: String, singular: String)] = Array(
    [regular, sibilantEs, cheExceptions, oes, ies, ves, irregular].joined())

  @Test(arguments: regular)
  func dropsTheFinalS(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
  }

  @Test(arguments: sibilantEs + cheExceptions)
  func dropsEsAfterSibilantsExceptForCheWords(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
  }

  @Test(arguments: oes)
  func turnsOesIntoOExceptForOeWords(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
  }

  @Test(arguments: ies)
  func turnsIesIntoYExceptForIeWords(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
  }

  @Test(arguments: ves)
  func turnsVesIntoFOrFeForListedWords(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
  }

  @Test(arguments: irregular)
  func looksUpIrregularPlurals(plural: String, singular: String) {
    #expect(Inflection.singular(plural) == singular)
  }

  @Test(arguments: unchanged)
  func leavesWordUnchanged(word: String) {
    #expect(Inflection.singular(word) == word)
  }

  @Test(arguments: allPlurals)
  func singularOfASingularIsItself(plural: String, singular: String) {
    #expect(Inflection.singular(Inflection.singular(plural)) == singular)
  }
}
