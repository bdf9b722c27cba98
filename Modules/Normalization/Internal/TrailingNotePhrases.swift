/// Phrases that end an ingredient name and go to notes ("salt to taste" → name "salt",
/// notes "to taste"). Longest first, so "or to taste" wins over "to taste".
package enum TrailingNotePhrases {
  package static let phrases: [[String]] = [
    ["plus", "more", "to", "taste"],
    ["or", "more", "to", "taste"],
    ["plus", "more", "for", "serving"],
    ["at", "room", "temperature"],
    ["or", "to", "taste"],
    ["or", "as", "needed"],
    ["to", "taste"],
    ["as", "needed"],
    ["if", "needed"],
    ["if", "desired"],
    ["if", "using"],
    ["for", "garnish"],
    ["to", "garnish"],
    ["for", "serving"],
    ["to", "serve"],
    ["for", "dusting"],
    ["for", "frying"],
    ["for", "greasing"],
    ["optional"],
    ["divided"],
  ]
}
