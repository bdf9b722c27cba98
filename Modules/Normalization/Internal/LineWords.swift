/// What the grammar's word tables say about one word key, looked up once per word when
/// the line is cut into tokens (`LineToken.classes`, `LineToken.unitIndex`), so the rules
/// test a bit or read an index instead of hashing the key again for every table.
///
/// Built from `NumberWords`, `NoteWords`, `UnitTable` and the lead words of
/// `LineGrammar+Amount`, so the tables stay the one place the words are listed.
enum LineWords {
  /// A set of word classes.
  struct Classes: OptionSet, Sendable {
    let rawValue: UInt16

    /// "a", "an" (`NumberWords.articles`).
    static let article = Classes(rawValue: 1 << 0)
    /// "few", "several", "some" (`NumberWords.vague`).
    static let vague = Classes(rawValue: 1 << 1)
    /// A word `LineGrammar.numberWords` can start with, except a hyphenated one: the
    /// units, the tens, the articles, "couple", "half", "quarter", "third".
    static let numberWord = Classes(rawValue: 1 << 2)
    /// A word before a quantity that goes to notes ("about", "scant").
    static let lead = Classes(rawValue: 1 << 3)
    /// `NoteWords.unitQualifiers`.
    static let unitQualifier = Classes(rawValue: 1 << 4)
    /// `NoteWords.preparation` or `NoteWords.size`.
    static let noteWord = Classes(rawValue: 1 << 5)
    /// `NoteWords.adverbs`.
    static let adverb = Classes(rawValue: 1 << 6)
    /// The first word of a unit spelled in several words ("fl", "fluid", "imp").
    static let unitStart = Classes(rawValue: 1 << 7)
  }

  struct Entry: Sendable {
    var classes: Classes = []
    /// The index in `UnitTable.entries` of the unit the word spells alone, or -1.
    var unit: Int16 = -1
  }

  /// Words before a quantity that go to notes ("about 2 cups", "scant 1 cup").
  static let leadWords: Set<String> = NoteWords.approximations.union([
    "scant", "heaping", "heaped", "generous", "good", "level", "rounded",
  ])

  /// Word key (lowercase, no dots) → its classes and unit.
  static let table: [String: Entry] = {
    var table: [String: Entry] = [:]
    func add(_ words: some Sequence<String>, _ classes: Classes) {
      for word in words { table[word, default: Entry()].classes.formUnion(classes) }
    }
    add(NumberWords.articles, [.article, .numberWord])
    add(NumberWords.vague, .vague)
    add(NumberWords.units.keys, .numberWord)
    add(NumberWords.tens.keys, .numberWord)
    add(NumberWords.couple, .numberWord)
    add(["half", "quarter", "third"], .numberWord)
    add(leadWords, .lead)
    add(NoteWords.unitQualifiers, .unitQualifier)
    add(NoteWords.preparation, .noteWord)
    add(NoteWords.size, .noteWord)
    add(NoteWords.adverbs, .adverb)
    for (index, entry) in UnitTable.entries.enumerated() {
      for spelling in entry.spellings {
        if let space = spelling.firstIndex(of: " ") {
          add([String(spelling[..<space])], .unitStart)
        } else {
          table[spelling, default: Entry()].unit = Int16(index)
        }
      }
    }
    return table
  }()

  /// The entry of a word token: `key` is its key, `text` its text as written. A one- or
  /// two-byte text that is "T" or "t" without dots is the case-sensitive spelling
  /// (`UnitTable.caseSensitiveSpellings`), which wins over the key's own unit.
  static func entry(key: String, text: String) -> Entry {
    var entry = table[key] ?? Entry()
    if text.utf8.count <= 2, let first = text.utf8.first, first == 0x54 || first == 0x74 {  // T t
      let exact = text.filter { $0 != "." }
      if let canonical = UnitTable.caseSensitiveSpellings[exact],
        let index = UnitTable.entries.firstIndex(where: { $0.canonical == canonical })
      {
        entry.unit = Int16(index)
      }
    }
    return entry
  }
}
