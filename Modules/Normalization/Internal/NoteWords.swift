/// Words that leave an ingredient's name for its notes when they lead the name
/// ("diced tomatoes" → name "tomatoes", notes "diced").
///
/// Rule of thumb: what the cook does or how big the item is goes to notes; what a shop
/// sells as a different product stays in the name. So "fresh", "dried", "frozen", "canned",
/// "ground" ("ground beef", "ground cumin"), "whole", "baby" and "smoked" stay.
package enum NoteWords {
  /// Preparation and state words.
  package static let preparation: Set<String> = [
    "diced", "chopped", "minced", "sliced", "grated", "shredded", "crushed", "peeled",
    "cubed", "julienned", "halved", "quartered", "trimmed", "seeded", "deseeded", "pitted",
    "cored", "zested", "juiced", "mashed", "pureed", "torn", "crumbled", "cut", "separated",
    "melted", "softened", "beaten", "whisked", "cooked", "drained", "rinsed", "toasted",
    "warmed", "chilled", "thawed", "defrosted", "sifted", "packed", "divided", "ripe",
    "boneless", "skinless", "bone-in", "skin-on",
  ]
  /// Size words.
  package static let size: Set<String> = [
    "large", "small", "medium", "medium-sized", "extra-large", "jumbo", "big", "medium-large",
  ]
  /// Adverbs that go to notes together with the preparation word they modify
  /// ("finely chopped", "lightly beaten").
  package static let adverbs: Set<String> = [
    "finely", "roughly", "coarsely", "thinly", "thickly", "freshly", "lightly", "well",
    "very", "firmly", "loosely", "evenly",
  ]
  /// Words joining two note words into one note ("peeled and diced").
  package static let joiners: Set<String> = ["and", "or", "&"]
  /// Two-word phrases that go to notes as a whole, although their second word alone stays
  /// in the name ("freshly ground black pepper" → name "black pepper").
  package static let phrases: Set<[String]> = [
    ["freshly", "ground"],
    ["finely", "ground"],
    ["coarsely", "ground"],
    ["extra", "large"],
  ]
  /// Qualifiers that sit between a quantity and its unit ("2 heaping tablespoons").
  package static let unitQualifiers: Set<String> = [
    "heaping", "heaped", "level", "scant", "generous", "rounded", "good", "large", "small",
    "medium", "big",
  ]
  /// Approximation words before a quantity ("about 2 cups").
  package static let approximations: Set<String> = [
    "about", "approximately", "approx", "around", "roughly", "~", "circa", "ca",
  ]
  /// Names that keep their leading note word because the whole phrase is a product
  /// ("crushed red pepper" is chili flakes, "minced beef" is ground beef).
  package static let productNames: [[String]] = [
    ["crushed", "red", "pepper"],
    ["toasted", "sesame", "oil"],
    ["shredded", "wheat"],
    ["minced", "beef"],
    ["minced", "pork"],
    ["minced", "lamb"],
    ["minced", "meat"],
    ["cooked", "ham"],
  ]
}
