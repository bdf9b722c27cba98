/// Singulars ending in -ie whose plural ends in -ies (cookies → cookie, not "cooky").
///
/// Any other -ies plural becomes -y (berries → berry); a one-letter stem keeps -ie
/// (pies → pie, ties → tie).
package enum IePluralNouns {
  package static let singulars: Set<String> = [
    "cookie", "brownie", "smoothie", "veggie", "calorie", "hoagie", "foodie", "brie",
    "charcuterie", "rotisserie", "patisserie", "boulangerie", "brasserie",
    "potpie", "magpie", "mincepie", "sweetie", "goodie", "birdie", "auntie", "beanie",
    "cutie", "movie", "zombie", "genie", "prairie", "lingerie", "goalie", "rookie",
    "hippie", "selfie", "nightie", "pixie", "oldie", "sortie", "coterie", "reverie",
    "menagerie", "toastie", "lassie", "collie", "stickie",
  ]
}
