/// One token of an ingredient line, as `LineTokenizer` cuts it.
///
/// Positions are byte offsets into the prepared line (`LineTokenizer.prepared`), so notes
/// can be put back in the order they were written and any run of tokens can be quoted as
/// written.
package struct LineToken: Equatable, Sendable {
  package enum Kind: Equatable, Sendable {
    /// A number: "2", "0.5", ".5", "1,5", "1,000", a fraction "3/4" or "2 / 3", a mixed
    /// number "1 1/2", "1-1/2", "2 ½". Never NaN; infinite when written too long to be
    /// finite (no rule takes an infinite number as an amount).
    case number(Double)
    /// A run of letters (any non-ASCII character counts as one), apostrophes and dots, with
    /// inner hyphens ("t-bone", "bone-in") and digits after letters ("v8"); "x" before a
    /// digit stands alone ("2x250ml").
    case word
    /// One ASCII character that is neither space, letter nor digit: - / + , ; : ~ % & * …
    case symbol(UInt8)
    /// A bracketed group, "(…)" or "[…]", nested groups included; `text` is its content.
    /// An unclosed group runs to the end of the line.
    case group
  }

  package var kind: Kind
  /// The text as written (a group's content without its brackets).
  package var text: String
  /// Words: lowercase with dots removed, the spelling units are looked up by
  /// ("Tbsp." → "tbsp"); for words with non-ASCII letters `SemanticKey.normalizedName`
  /// of that. Empty for other kinds.
  package var key: String
  /// Byte offsets of the token in the prepared line (a group's include its brackets).
  package var start: Int
  package var end: Int
  /// Whether whitespace (or the start of the line) comes right before the token.
  package var spaceBefore: Bool
  /// Numbers: written as digits only ("12"), not as a decimal or a fraction.
  package var isInteger: Bool = false
  /// Numbers: written as a fraction, "3/4" or "2 / 3".
  package var isFraction: Bool = false
  /// Words: what the grammar's word tables say about the key (`LineWords`).
  var classes: LineWords.Classes = []
  /// Words: the index in `UnitTable.entries` of the unit the word spells alone ("T" and
  /// "t" by case), or -1.
  var unitIndex: Int16 = -1

  package var number: Double? {
    if case .number(let value) = kind { return value }
    return nil
  }

  /// A number that can be an amount: finite and above zero ("00 flour" has none).
  package var amount: Double? {
    guard case .number(let value) = kind, value.isFinite, value > 0 else { return nil }
    return value
  }

  package var isWord: Bool { kind == .word }
  package var isGroup: Bool { kind == .group }

  package func isSymbol(_ character: Unicode.Scalar) -> Bool {
    kind == .symbol(UInt8(truncatingIfNeeded: character.value))
  }

  /// Whether this is a word whose key is `word`.
  package func `is`(_ word: String) -> Bool { kind == .word && key == word }
}
