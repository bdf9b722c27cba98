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
  /// 5. Words not ending in -s, possessives in -'s, and words ending in -ss, -us or -sis
  ///    are unchanged (basil, baker's, glass, citrus, basis); other -is words are plurals
  ///    of -i words (kiwis → kiwi, paninis → panini) unless listed as invariant (haggis).
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
    guard !word.hasSuffix("ss"), !word.hasSuffix("us"), !word.hasSuffix("sis") else {
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

  private static func isSingularizable(_ word: String) -> Bool {
    !word.isEmpty
      && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "-" || $0 == "'" }
  }
}
