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
    var bytes = word
    return bytes.withUTF8 { singular(word, $0) } ?? word
  }

  /// `singular` on the word's UTF-8 bytes: suffixes are compared as bytes, and a String is
  /// built only for a table lookup or the result. Nil when the word is unchanged.
  private static func singular(_ word: String, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard isSingularizable(bytes) else { return nil }
    if InvariantNouns.words.contains(word) { return nil }
    if let irregular = IrregularPlurals.table[word] { return irregular }
    // Every byte is ASCII now, so bytes count characters.
    let count = bytes.count
    guard count > 3 else { return nil }
    for (plural, singular) in CompoundPluralSuffixes.table where ends(bytes, plural) {
      return prefix(bytes, dropping: plural.utf8.count) + singular
    }
    guard ends(bytes, "s"), !ends(bytes, "'s") else { return nil }
    if ends(bytes, "es") {
      let stem = prefix(bytes, dropping: 2)
      if InvariantNouns.words.contains(stem) { return stem }  // couscouses, hummuses, molasseses
    }
    if ends(bytes, "uses") { return singularOfUses(bytes) }
    if ends(bytes, "us") { return isPluralOfU(bytes) ? prefix(bytes, dropping: 1) : nil }
    guard !ends(bytes, "ss"), !ends(bytes, "sis") else { return nil }
    if ends(bytes, "ies") {
      let ie = prefix(bytes, dropping: 1)
      if IePluralNouns.singulars.contains(ie) || count == 4 { return ie }
      return prefix(bytes, dropping: 3) + "y"
    }
    if ends(bytes, "oes") {
      let oe = prefix(bytes, dropping: 1)
      return OePluralNouns.singulars.contains(oe) ? oe : prefix(bytes, dropping: 2)
    }
    if ends(bytes, "ches") {
      let che = prefix(bytes, dropping: 1)
      return ChePluralNouns.singulars.contains(che) ? che : prefix(bytes, dropping: 2)
    }
    if ends(bytes, "shes") || ends(bytes, "xes") || ends(bytes, "sses") || ends(bytes, "zzes") {
      return prefix(bytes, dropping: 2)
    }
    return prefix(bytes, dropping: 1)
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
    var bytes = phrase
    if let result = bytes.withUTF8({ singularizeHeadNounInPlace(phrase, $0) }) { return result }
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

  /// `singularizeHeadNoun` for a phrase already spaced as its result is (ASCII words
  /// separated by one space, none at the ends), as every `normalizedName` key is: the
  /// head noun is found on the bytes and only it is replaced. Nil for any other phrase.
  private static func singularizeHeadNounInPlace(_ phrase: String, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return nil }
    var starts: [Int] = [0]
    for index in bytes.indices {
      let byte = bytes[index]
      if byte >= 0x80 || (byte != 0x20 && TextFolding.asciiWhitespace[Int(byte)]) { return nil }
      if byte == 0x20 {
        if bytes[index - 1] == 0x20 { return nil }
        starts.append(index + 1)
      }
    }
    func word(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      let end = index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count
      return UnsafeBufferPointer(rebasing: bytes[starts[index]..<end])
    }
    var head = starts.count - 1
    if let connector = (1..<max(starts.count, 1)).first(where: { isConnector(word($0)) }) {
      head = connector - 1
    } else if starts.count >= 2, MeasureWords.table[String(decoding: word(0), as: UTF8.self)] != nil {
      head = 0
    }
    let headBytes = word(head)
    let headWord = String(decoding: headBytes, as: UTF8.self)
    guard let singular = singular(headWord, headBytes) else { return phrase }
    let before = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<starts[head]]), as: UTF8.self)
    let after = String(decoding: UnsafeBufferPointer(rebasing: bytes[(starts[head] + headBytes.count)...]), as: UTF8.self)
    return before + singular + after
  }

  private static func isConnector(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
    HeadNounConnectors.words.contains { $0.utf8.elementsEqual(word) }
  }

  /// "-uses": after a vowel the plural of a -use word (houses, blouses); after a consonant
  /// the plural of an -us word (asparaguses, cactuses, walruses) unless the -use word is
  /// listed in `UsePluralNouns` (excuses).
  private static func singularOfUses(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let use = prefix(bytes, dropping: 1)
    let beforeUses = bytes.count > 4 ? bytes[bytes.count - 5] : 0
    if "aeiou".utf8.contains(beforeUses) || UsePluralNouns.singulars.contains(use) { return use }
    return prefix(bytes, dropping: 2)
  }

  /// Whether a word in -us is the plural of a -u word: -us after k, f, z, w, h or u
  /// (haikus, tofus, kudzus, muumuus), -aus (gateaus), or a word in `UPluralNouns` (menus,
  /// emus). -ous is a singular (couscous), and so is any other -us word (citrus, hummus).
  private static func isPluralOfU(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if UPluralNouns.singulars.contains(prefix(bytes, dropping: 1)) { return true }
    if ends(bytes, "ous") { return false }
    let beforeUs = bytes.count > 2 ? bytes[bytes.count - 3] : 0
    return "kfzwhua".utf8.contains(beforeUs)
  }

  /// Only a–z, "-" and "'", and at least one of them.
  private static func isSingularizable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x27 }
  }

  private static func ends(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: String) -> Bool {
    let count = suffix.utf8.count
    guard bytes.count >= count else { return false }
    return UnsafeBufferPointer(rebasing: bytes[(bytes.count - count)...]).elementsEqual(suffix.utf8)
  }

  /// The word without its last `count` bytes.
  private static func prefix(_ bytes: UnsafeBufferPointer<UInt8>, dropping count: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - count)]), as: UTF8.self)
  }

}
