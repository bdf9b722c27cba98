/// Singulars ending in -u whose plural in -us the rule cannot tell from a singular in -us
/// (menus → menu, emus → emu; but bonus, hummus, citrus stay).
///
/// By rule, without this table: -us after k, f, z, w, h or u is the plural of a -u word
/// (haikus, tofus, kudzus, muumuus), and so is -aus (gateaus, pilaus); -ous is a singular
/// (couscous, and every adjective). Other -us words are singulars unless listed here.
package enum UPluralNouns {
  package static let singulars: Set<String> = [
    "menu", "emu", "gnu", "tutu", "guru", "tiramisu", "zebu", "kudu", "fugu", "bayou", "caribou", "bijou",
    "marabou", "tolu", "bantu", "juju", "lulu", "sudoku", "shabu-shabu", "poilu", "beaujolais-nouveau",
  ]
}

/// Singulars ending in -use after a consonant, whose plural in -uses is not an -us word's
/// (excuses → excuse; but asparaguses → asparagus). After a vowel -uses is always -use
/// (houses, blouses, mouses).
package enum UsePluralNouns {
  package static let singulars: Set<String> = [
    "excuse", "fuse", "muse", "ruse", "abuse", "recluse", "accuse", "cayuse", "refuse", "amuse",
  ]
}
