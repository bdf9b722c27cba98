/// English singularization for food nouns, driven by word tables in `Internal/`.
///
/// ```swift
/// Inflection.singular("tomatoes")                   // "tomato"
/// Inflection.singularizeHeadNoun("cloves of garlic") // "clove of garlic"
/// ```
public enum Inflection {
  /// The singular of one lowercase word.
  ///
  /// In order, first match wins:
  /// 1. Words of anything but a–z, "-" and "'" and words of three letters or fewer
  ///    are unchanged (except irregulars such as "men").
  /// 2. `InvariantNouns` are unchanged (asparagus, hummus, rice, molasses, fish, …).
  /// 3. `IrregularPlurals` (geese → goose, teeth → tooth, children → child, calves → calf, …).
  /// 4. `CompoundPluralSuffixes` (…leaves → …leaf, …loaves → …loaf, …knives → …knife, …halves → …half).
  /// 5. Words not ending in -s and possessives in -'s are unchanged. An invariant word plus
  ///    -es loses the -es (couscouses, hummuses). -uses: after a vowel → -use (houses),
  ///    after a consonant → -us (asparaguses, cactuses) unless `UsePluralNouns` (excuses).
  ///    -us: the plural of a -u word after k, f, z, w, h, u, in -aus, or in `UPluralNouns`
  ///    (haikus, tofus, gateaus, menus, emus); any other -us word is unchanged (citrus,
  ///    couscous). Words ending in -ss or -sis are unchanged (glass, basis); other -is words
  ///    are plurals of -i words (kiwis → kiwi, paninis → panini) unless listed as invariant
  ///    (haggis).
  /// 6. -ies → -ie for `IePluralNouns` and one-letter stems (cookies, pies), else -y (berries → berry).
  /// 7. -oes → -oe for `OePluralNouns` (sloes), else -o (tomatoes → tomato).
  /// 8. -ches → -che for `ChePluralNouns` (quiches), else -ch (peaches → peach).
  /// 9. -shes → -sh, -xes → -x, -sses → -ss, -zzes → -zz (dishes, boxes, glasses).
  /// 10. Otherwise drop the final "s" (apples → apple, olives → olive, cheeses → cheese).
  ///
  /// Idempotent: the singular of a singular is itself.
  public static func singular(_ word: String) -> String {
    guard isSingularizable(word) else { return word }
    if InvariantNouns.words.contains(word) { return word }
    if let irregular = IrregularPlurals.table[word] { return irregular }
    guard word.count > 3 else { return word }
    for (plural, singular) in CompoundPluralSuffixes.table where word.hasSuffix(plural) {
      return String(word.dropLast(plural.count)) + singular
    }
    guard word.hasSuffix("s"), !word.hasSuffix("'s") else { return word }
    if word.hasSuffix("es"), InvariantNouns.words.contains(String(word.dropLast(2))) {
      return String(word.dropLast(2))  // couscouses, hummuses, molasseses
    }
    if word.hasSuffix("uses") { return singularOfUses(word) }
    if word.hasSuffix("us") { return isPluralOfU(word) ? String(word.dropLast()) : word }
    guard !word.hasSuffix("ss"), !word.hasSuffix("sis") else {
      return word
    }
    if word.hasSuffix("ies") {
      let ie = String(word.dropLast())
      if IePluralNouns.singulars.contains(ie) || word.count == 4 { return ie }
      return String(word.dropLast(3)) + "y"
    }
    if word.hasSuffix("oes") {
      let oe = String(word.dropLast())
      return OePluralNouns.singulars.contains(oe) ? oe : String(word.dropLast(2))
    }
    if word.hasSuffix("ches") {
      let che = String(word.dropLast())
      return ChePluralNouns.singulars.contains(che) ? che : String(word.dropLast(2))
    }
    for sibilant in ["shes", "xes", "sses", "zzes"] where word.hasSuffix(sibilant) {
      return String(word.dropLast(2))
    }
    return String(word.dropLast())
  }

  /// Makes only the head noun of a multi-word food name singular.
  ///
  /// The head noun is
  /// - in "X of Y", "X with Y", "X in Y": the last word of X
  ///   ("cloves of garlic" → "clove of garlic", "hearts of palm" → "heart of palm");
  /// - when the first of two or more words is a `MeasureWords` count word: that word
  ///   ("cloves garlic" → "clove garlic", "sprigs thyme" → "sprig thyme"), so the food
  ///   noun after it is never touched;
  /// - otherwise the last word ("roma tomatoes" → "roma tomato", "green beans" → "green bean").
  ///
  /// Words are separated by whitespace and rejoined with one space; hyphenated words are
  /// one word ("stir-fries" → "stir-fry"). Idempotent.
  public static func singularizeHeadNoun(_ phrase: String) -> String {
    var words = TextFolding.wordsOfASCII(phrase) ?? phrase.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    guard !words.isEmpty else { return "" }
    let head: Int
    if let connector = words.indices.dropFirst().first(where: { HeadNounConnectors.words.contains(words[$0]) }) {
      head = connector - 1
    } else if words.count >= 2, MeasureWords.table[words[0]] != nil {
      head = 0
    } else {
      head = words.count - 1
    }
    words[head] = singular(words[head])
    return words.joined(separator: " ")
  }

  /// "-uses": after a vowel the plural of a -use word (houses, blouses); after a consonant
  /// the plural of an -us word (asparaguses, cactuses, walruses) unless the -use word is
  /// listed in `UsePluralNouns` (excuses).
  private static func singularOfUses(_ word: String) -> String {
    let use = String(word.dropLast())
    let beforeUses = word.utf8.dropLast(4).last ?? 0
    if "aeiou".utf8.contains(beforeUses) || UsePluralNouns.singulars.contains(use) { return use }
    return String(word.dropLast(2))
  }

  /// Whether a word in -us is the plural of a -u word: -us after k, f, z, w, h or u
  /// (haikus, tofus, kudzus, muumuus), -aus (gateaus), or a word in `UPluralNouns` (menus,
  /// emus). -ous is a singular (couscous), and so is any other -us word (citrus, hummus).
  private static func isPluralOfU(_ word: String) -> Bool {
    let u = String(word.dropLast())
    if UPluralNouns.singulars.contains(u) { return true }
    if word.hasSuffix("ous") { return false }
    let beforeUs = word.utf8.dropLast(2).last ?? 0
    return "kfzwhua".utf8.contains(beforeUs)
  }

  private static func isSingularizable(_ word: String) -> Bool {
    !word.isEmpty
      && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "-" || $0 == "'" }
  }
}
