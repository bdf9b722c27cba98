import Normalization
import Testing

@Suite("normalizedName")
struct NormalizedNameTests {
  static let cases: [(input: String, expected: String)] = [
    // Case, trim, collapse
    ("  MEAT &  Seafood ", "meat & seafood"),
    ("Produce", "produce"),
    ("PRODUCE", "produce"),
    ("produce", "produce"),
    ("  produce  ", "produce"),
    ("Dairy   and    Eggs", "dairy and eggs"),
    ("Frozen\tFoods", "frozen foods"),
    ("Frozen\nFoods", "frozen foods"),
    ("Frozen\r\nFoods", "frozen foods"),
    ("Frozen\u{00A0}Foods", "frozen foods"),
    ("Frozen\u{2003}Foods", "frozen foods"),
    ("Frozen\u{3000}Foods", "frozen foods"),
    ("\u{00A0}Bakery\u{00A0}", "bakery"),
    ("Snacks\u{2028}Sweets", "snacks sweets"),
    ("Spices\u{0085}Herbs", "spices herbs"),
    // Empty and blank
    ("", ""),
    (" ", ""),
    ("\t\n ", ""),
    ("\u{00A0}\u{3000}", ""),
    // Diacritics, combining and precomposed
    ("Crème Fraîche", "creme fraiche"),
    ("cre\u{0300}me", "creme"),
    ("cr\u{00E8}me", "creme"),
    ("Jalapeño", "jalapeno"),
    ("Jalapen\u{0303}o", "jalapeno"),
    ("Piñata Café", "pinata cafe"),
    ("Ærøskøbing", "aeroskobing"),
    ("Crêpes Suzette", "crepes suzette"),
    ("Häagen-Dazs", "haagen-dazs"),
    ("Łódź", "lodz"),
    ("Bœuf Bourguignon", "boeuf bourguignon"),
    // Compatibility forms (NFKC)
    ("ﬁsh", "fish"),
    ("Souﬄé", "souffle"),
    ("Ｔｏｆｕ", "tofu"),
    ("ＭＩＳＯ　Ｓｏｕｐ", "miso soup"),
    ("Ⅸ", "ix"),
    ("①", "1"),
    ("㎏", "kg"),
    // Case folding beyond lowercasing
    ("Straße", "strasse"),
    ("STRASSE", "strasse"),
    ("ẞ", "ss"),
    ("İstanbul", "istanbul"),
    ("ISTANBUL", "istanbul"),
    ("ıstanbul", "istanbul"),
    ("ΣΟΦΟΣ", "σοφοσ"),
    ("σοφος", "σοφοσ"),
    // Invisible characters
    ("soft\u{00AD}ware", "software"),
    ("zero\u{200B}width", "zerowidth"),
    ("\u{FEFF}bom", "bom"),
    // Other scripts keep their marks
    ("がんもどき", "がんもどき"),
    ("Pâté & Co.", "pate & co."),
  ]

  @Test(arguments: cases)
  func foldsToTheKey(input: String, expected: String) {
    #expect(SemanticKey.normalizedName(input) == expected)
  }

  @Test func combiningAndPrecomposedSpellingsGiveTheSameKey() {
    #expect(SemanticKey.normalizedName("Cafe\u{0301}") == SemanticKey.normalizedName("Caf\u{00E9}"))
  }
}
