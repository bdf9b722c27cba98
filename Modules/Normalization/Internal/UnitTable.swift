/// The units an ingredient line recognises: canonical name, kind, and every spelling.
///
/// Spellings are matched case-insensitively after dots are removed ("Tbsp." → "tbsp",
/// "fl. oz." → "fl oz"), except the single letters in `caseSensitiveSpellings`, where
/// case is the only difference between a tablespoon and a teaspoon.
package enum UnitTable {
  package enum Kind: Sendable {
    /// A measure of volume or mass: "2 cups" alone is still two cups of something.
    case measure
    /// A count of things: "4 cloves" alone names the spice, so the word stays the name.
    case count
  }

  package struct Entry: Sendable {
    package let canonical: String
    package let kind: Kind
    /// May stand without a quantity when a name follows ("pinch salt"); any unit may
    /// when "of" follows ("cup of sugar").
    package let bareAllowed: Bool
    /// What the unit measures and its exact size, for units that convert ("cup", "g");
    /// nil for counts and for measures with no fixed size ("pinch", "handful").
    package let measure: UnitMeasure?
    package let spellings: [String]

    init(canonical: String, kind: Kind, bareAllowed: Bool, measure: UnitMeasure? = nil, spellings: [String]) {
      self.canonical = canonical
      self.kind = kind
      self.bareAllowed = bareAllowed
      self.measure = measure
      self.spellings = spellings
    }
  }

  package static let entries: [Entry] = [
    // US volume
    .init(
      canonical: "cup", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usCup),
      spellings: ["cup", "cups", "c", "cupful", "cupfuls"]),
    .init(
      canonical: "tbsp", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usTeaspoon.times(3)),
      spellings: ["tbsp", "tbsps", "tbs", "tbl", "tbls", "tb", "tblsp", "tablespoon", "tablespoons", "tablespoonful", "tablespoonfuls"]
    ),
    .init(
      canonical: "tsp", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usTeaspoon),
      spellings: ["tsp", "tsps", "ts", "teaspoon", "teaspoons", "teaspoonful", "teaspoonfuls"]),
    .init(
      canonical: "fl oz", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usFluidOunce),
      spellings: ["fl oz", "floz", "fluid ounce", "fluid ounces", "fluid oz", "fl ounce", "fl ounces"]
    ),
    .init(
      canonical: "pint", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usCup.times(2)),
      spellings: ["pint", "pints", "pt", "pts"]),
    .init(
      canonical: "quart", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usCup.times(4)),
      spellings: ["quart", "quarts", "qt", "qts"]),
    .init(
      canonical: "gallon", kind: .measure, bareAllowed: false, measure: .init(.volume, .us, Measures.usCup.times(16)),
      spellings: ["gallon", "gallons", "gal", "gals"]),
    // Imperial volume, where it differs from the US units of the same name
    .init(
      canonical: "imp fl oz", kind: .measure, bareAllowed: false, measure: .init(.volume, .imperial, Measures.imperialFluidOunce),
      spellings: ["imp fl oz", "imperial fl oz", "uk fl oz"]
    ),
    .init(
      canonical: "imp pint", kind: .measure, bareAllowed: false, measure: .init(.volume, .imperial, Measures.imperialFluidOunce.times(20)),
      spellings: ["imp pint", "imp pints", "imperial pint", "imperial pints", "uk pint", "uk pints"]
    ),
    .init(
      canonical: "imp quart", kind: .measure, bareAllowed: false, measure: .init(.volume, .imperial, Measures.imperialFluidOunce.times(40)),
      spellings: ["imp quart", "imp quarts", "imperial quart", "imperial quarts", "uk quart", "uk quarts"]
    ),
    .init(
      canonical: "imp gallon", kind: .measure, bareAllowed: false,
      measure: .init(.volume, .imperial, Measures.imperialFluidOunce.times(160)),
      spellings: ["imp gallon", "imp gallons", "imperial gallon", "imperial gallons", "uk gallon", "uk gallons"]
    ),
    // US mass
    .init(
      canonical: "oz", kind: .measure, bareAllowed: false, measure: .init(.mass, .us, Measures.ounce),
      spellings: ["oz", "ozs", "ounce", "ounces"]),
    .init(
      canonical: "lb", kind: .measure, bareAllowed: false, measure: .init(.mass, .us, Measures.pound),
      spellings: ["lb", "lbs", "pound", "pounds"]),
    // Metric mass
    .init(
      canonical: "mg", kind: .measure, bareAllowed: false, measure: .init(.mass, .metric, Measures.exact(1, 1000)),
      spellings: ["mg", "milligram", "milligrams", "milligramme", "milligrammes"]),
    .init(
      canonical: "g", kind: .measure, bareAllowed: false, measure: .init(.mass, .metric, Measures.exact(1)),
      spellings: ["g", "gr", "grs", "gm", "gms", "gram", "grams", "gramme", "grammes"]),
    .init(
      canonical: "kg", kind: .measure, bareAllowed: false, measure: .init(.mass, .metric, Measures.exact(1000)),
      spellings: ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogrammes"]
    ),
    // Metric volume
    .init(
      canonical: "ml", kind: .measure, bareAllowed: false, measure: .init(.volume, .metric, Measures.exact(1)),
      spellings: ["ml", "mls", "milliliter", "milliliters", "millilitre", "millilitres"]
    ),
    .init(
      canonical: "cl", kind: .measure, bareAllowed: false, measure: .init(.volume, .metric, Measures.exact(10)),
      spellings: ["cl", "centiliter", "centiliters", "centilitre", "centilitres"]),
    .init(
      canonical: "dl", kind: .measure, bareAllowed: false, measure: .init(.volume, .metric, Measures.exact(100)),
      spellings: ["dl", "deciliter", "deciliters", "decilitre", "decilitres"]),
    .init(
      canonical: "l", kind: .measure, bareAllowed: false, measure: .init(.volume, .metric, Measures.exact(1000)),
      spellings: ["l", "lt", "ltr", "ltrs", "liter", "liters", "litre", "litres"]),
    // Length (ginger, cinnamon)
    .init(
      canonical: "cm", kind: .measure, bareAllowed: false, measure: .init(.length, .metric, Measures.exact(1)),
      spellings: ["cm", "centimeter", "centimeters", "centimetre", "centimetres"]),
    .init(
      canonical: "inch", kind: .measure, bareAllowed: false, measure: .init(.length, .us, Measures.exact(254, 100)),
      spellings: ["inch", "inches"]),
    // Small measures
    .init(canonical: "pinch", kind: .measure, bareAllowed: true, spellings: ["pinch", "pinches"]),
    .init(canonical: "dash", kind: .measure, bareAllowed: true, spellings: ["dash", "dashes"]),
    .init(canonical: "splash", kind: .measure, bareAllowed: true, spellings: ["splash", "splashes"]),
    .init(canonical: "drop", kind: .measure, bareAllowed: false, spellings: ["drop", "drops"]),
    .init(canonical: "handful", kind: .measure, bareAllowed: true, spellings: ["handful", "handfuls"]),
    .init(canonical: "drizzle", kind: .measure, bareAllowed: true, spellings: ["drizzle", "drizzles"]),
    .init(canonical: "dollop", kind: .measure, bareAllowed: true, spellings: ["dollop", "dollops"]),
    // Counts
    .init(canonical: "clove", kind: .count, bareAllowed: false, spellings: ["clove", "cloves"]),
    .init(canonical: "can", kind: .count, bareAllowed: false, spellings: ["can", "cans", "tin", "tins"]),
    .init(canonical: "jar", kind: .count, bareAllowed: false, spellings: ["jar", "jars"]),
    .init(canonical: "bottle", kind: .count, bareAllowed: false, spellings: ["bottle", "bottles"]),
    .init(canonical: "slice", kind: .count, bareAllowed: false, spellings: ["slice", "slices"]),
    .init(canonical: "bunch", kind: .count, bareAllowed: true, spellings: ["bunch", "bunches"]),
    .init(canonical: "sprig", kind: .count, bareAllowed: true, spellings: ["sprig", "sprigs"]),
    .init(canonical: "stalk", kind: .count, bareAllowed: false, spellings: ["stalk", "stalks"]),
    .init(canonical: "head", kind: .count, bareAllowed: false, spellings: ["head", "heads"]),
    .init(canonical: "stick", kind: .count, bareAllowed: false, spellings: ["stick", "sticks"]),
    .init(canonical: "piece", kind: .count, bareAllowed: false, spellings: ["piece", "pieces", "pc", "pcs"]),
    .init(
      canonical: "package", kind: .count, bareAllowed: false,
      spellings: ["package", "packages", "pkg", "pkgs", "packet", "packets", "pack", "packs"]
    ),
    .init(canonical: "bag", kind: .count, bareAllowed: false, spellings: ["bag", "bags"]),
    .init(canonical: "box", kind: .count, bareAllowed: false, spellings: ["box", "boxes"]),
    .init(canonical: "knob", kind: .count, bareAllowed: true, spellings: ["knob", "knobs"]),
    .init(canonical: "rasher", kind: .count, bareAllowed: false, spellings: ["rasher", "rashers"]),
    .init(canonical: "dozen", kind: .count, bareAllowed: false, spellings: ["dozen", "dozens"]),
    // Containers and pieces (issue 17): "1 (12 oz) container yogurt", "2 x 250 ml cartons stock".
    .init(canonical: "container", kind: .count, bareAllowed: false, spellings: ["container", "containers"]),
    .init(canonical: "carton", kind: .count, bareAllowed: false, spellings: ["carton", "cartons"]),
    .init(canonical: "tub", kind: .count, bareAllowed: false, spellings: ["tub", "tubs"]),
    .init(canonical: "pouch", kind: .count, bareAllowed: false, spellings: ["pouch", "pouches"]),
    .init(canonical: "envelope", kind: .count, bareAllowed: false, spellings: ["envelope", "envelopes", "sachet", "sachets"]),
    .init(canonical: "tube", kind: .count, bareAllowed: false, spellings: ["tube", "tubes"]),
    .init(canonical: "punnet", kind: .count, bareAllowed: false, spellings: ["punnet", "punnets"]),
    .init(canonical: "block", kind: .count, bareAllowed: false, spellings: ["block", "blocks"]),
    .init(canonical: "sheet", kind: .count, bareAllowed: false, spellings: ["sheet", "sheets"]),
    .init(canonical: "fillet", kind: .count, bareAllowed: false, spellings: ["fillet", "fillets", "filet", "filets"]),
    .init(canonical: "cube", kind: .count, bareAllowed: false, spellings: ["cube", "cubes"]),
    .init(canonical: "loaf", kind: .count, bareAllowed: false, spellings: ["loaf", "loaves"]),
    .init(canonical: "ear", kind: .count, bareAllowed: false, spellings: ["ear", "ears"]),
    .init(canonical: "bulb", kind: .count, bareAllowed: false, spellings: ["bulb", "bulbs"]),
    .init(canonical: "strip", kind: .count, bareAllowed: false, spellings: ["strip", "strips"]),
    .init(canonical: "wedge", kind: .count, bareAllowed: false, spellings: ["wedge", "wedges"]),
    .init(canonical: "ball", kind: .count, bareAllowed: false, spellings: ["ball", "balls"]),
  ]

  /// Single letters whose case decides the unit: "T" is a tablespoon, "t" a teaspoon.
  package static let caseSensitiveSpellings: [String: String] = ["T": "tbsp", "t": "tsp"]

  /// Spelling (lowercase, no dots) → entry.
  package static let bySpelling: [String: Entry] = {
    var result: [String: Entry] = [:]
    for entry in entries {
      for spelling in entry.spellings { result[spelling] = entry }
    }
    return result
  }()

  /// Canonical name → entry.
  package static let byCanonical: [String: Entry] = {
    var result: [String: Entry] = [:]
    for entry in entries { result[entry.canonical] = entry }
    return result
  }()
}
