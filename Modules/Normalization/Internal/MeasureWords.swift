/// Count words that can open a food phrase without "of" ("cloves garlic", "sprigs thyme").
///
/// When one of these (singular or plural) is the first of two or more words, it is the head
/// noun: "cloves garlic" → "clove garlic", "sprigs fresh thyme" → "sprig fresh thyme".
/// Words that also start real food names ("bottle gourd", "sheet cake", "leaf lettuce",
/// "bar cookies") are deliberately absent.
package enum MeasureWords {
  package static let table: [String: String] = [
    "clove": "clove", "cloves": "clove",
    "sprig": "sprig", "sprigs": "sprig",
    "bunch": "bunch", "bunches": "bunch",
    "stalk": "stalk", "stalks": "stalk",
    "head": "head", "heads": "head",
    "slice": "slice", "slices": "slice",
    "can": "can", "cans": "can",
    "tin": "tin", "tins": "tin",
    "piece": "piece", "pieces": "piece",
    "pinch": "pinch", "pinches": "pinch",
    "dash": "dash", "dashes": "dash",
    "handful": "handful", "handfuls": "handful",
    "stick": "stick", "sticks": "stick",
    "package": "package", "packages": "package",
    "packet": "packet", "packets": "packet",
    "jar": "jar", "jars": "jar",
    "rasher": "rasher", "rashers": "rasher",
    "knob": "knob", "knobs": "knob",
  ]
}
