/// Words that `Inflection.singular` returns unchanged: uncountable foods, words whose plural
/// is the same as the singular, and singular words that merely end in "s".
///
/// Words ending in -ss, -us or -sis are left alone by rule as well; the ones listed here
/// are listed for documentation. Singular words in -is must be listed (haggis), because
/// the rule reads other -is words as plurals of -i words (kiwis → kiwi). Keys are lowercase ASCII.
package enum InvariantNouns {
  package static let words: Set<String> = [
    // Singular words that end in s.
    "asparagus", "hummus", "couscous", "molasses", "citrus", "hibiscus", "octopus",
    "swiss", "grass", "lemongrass", "glass", "bass", "cress", "watercress",
    "haggis", "chassis", "pastis", "anis", "tennis", "iris", "gras", "schnapps", "sassafras", "ananas", "christmas",
    "brussels", "grits", "bitters", "greens", "herbes", "verts", "news", "series", "species",
    "kudos", "diabetes", "pathos", "ethos", "asbestos", "chaos",
    // Same form in singular and plural.
    "fish", "sheep", "deer", "moose", "bison", "elk",
    "shrimp", "salmon", "trout", "cod", "tuna", "squid",
    // Uncountables (no plural to undo, listed so nobody adds a rule that mangles them).
    "rice", "lettuce", "bread", "flour", "butter", "milk",
  ]
}
