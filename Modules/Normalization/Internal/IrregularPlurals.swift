/// Plural → singular pairs that no suffix rule produces. Checked before every rule.
///
/// Keys and values are lowercase ASCII. Documented in `Docs/NORMALIZATION.md`.
package enum IrregularPlurals {
  package static let table: [String: String] = [
    // Vowel-change and -en plurals.
    "geese": "goose",
    "mice": "mouse",
    "lice": "louse",
    "teeth": "tooth",
    "feet": "foot",
    "children": "child",
    "oxen": "ox",
    "men": "man",
    "women": "woman",
    "people": "person",
    // Latin plurals.
    "fungi": "fungus",
    "cacti": "cactus",
    "octopi": "octopus",
    "radii": "radius",
    // Plurals of words that end in -us, -ss or -z, which the rules leave alone.
    "octopuses": "octopus",
    "citruses": "citrus",
    "hibiscuses": "hibiscus",
    "buses": "bus",
    "gases": "gas",
    "quizzes": "quiz",
    "mousses": "mousse",
    // -ies plurals of words that end in -i, not -y.
    "chilies": "chili",
    "chillies": "chilli",
    "kiwies": "kiwi",
    // -ves plurals whose singular ends in -f or -fe (the default is -ve: olives → olive).
    "calves": "calf",
    "wolves": "wolf",
    "shelves": "shelf",
    "lives": "life",
    "wives": "wife",
    "thieves": "thief",
    "elves": "elf",
    "selves": "self",
    "scarves": "scarf",
    "wharves": "wharf",
    "hooves": "hoof",
    "sheaves": "sheaf",
    "dwarves": "dwarf",
  ]
}
