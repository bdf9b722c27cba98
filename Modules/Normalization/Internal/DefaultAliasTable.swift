/// The built-in ingredient aliases: variant name → canonical name.
///
/// Only pairs that name the same thing in a shop are listed (regional and spelling
/// variants), never "close enough" substitutions. Keys and values are canonicalized
/// (singular head noun) before use, so either number may be written here.
package enum DefaultAliasTable {
  package static let table: [String: String] = [
    "scallion": "spring onion",
    "green onion": "spring onion",
    "capsicum": "bell pepper",
    "garbanzo bean": "chickpea",
    "garbanzo": "chickpea",
    "chick pea": "chickpea",
    "aubergine": "eggplant",
    "courgette": "zucchini",
    "coriander leaf": "cilantro",
    "cilantro leaf": "cilantro",
    "beetroot": "beet",
    "rocket": "arugula",
    "mangetout": "snow pea",
    "swede": "rutabaga",
    "icing sugar": "powdered sugar",
    "confectioners sugar": "powdered sugar",
    "confectioners' sugar": "powdered sugar",
    "caster sugar": "superfine sugar",
    "bicarbonate of soda": "baking soda",
    "bicarb soda": "baking soda",
    "double cream": "heavy cream",
    "plain flour": "all-purpose flour",
    "all purpose flour": "all-purpose flour",
    "wholemeal flour": "whole wheat flour",
    "minced beef": "ground beef",
    "minced pork": "ground pork",
    "yoghurt": "yogurt",
    "yoghourt": "yogurt",
    "catsup": "ketchup",
    "rapeseed oil": "canola oil",
    "pak choi": "bok choy",
    "pak choy": "bok choy",
    "bok choi": "bok choy",
    "italian parsley": "flat-leaf parsley",
    "flat leaf parsley": "flat-leaf parsley",
  ]
}
