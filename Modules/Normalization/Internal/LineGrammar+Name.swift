/// Name rules: what is left of the head after the amount.
///
///     name        := note-words* words trailing-phrase*
///     alternative := "or" quantity …      -- "2 tbsp butter or 1 tbsp oil": to notes
///     stray       := number unit? …       -- a number the amount rules did not read: to notes
extension LineGrammar {
  /// Cuts "or 1 tbsp oil" off the name: the alternative goes to notes (and `alternative`).
  /// Returns the new end of the name.
  mutating func cutAlternative(_ start: Int, _ end: Int) -> Int {
    var index = start + 1
    while index + 1 < end {
      defer { index += 1 }
      guard tokens[index].is("or"), quantity(at: index + 1, end) != nil else { continue }
      let text = SemanticKey.normalizedName(quote((index + 1)..<end))
      alternative = text
      addNote("or " + text, at: tokens[index].start)
      return index
    }
    return end
  }

  /// Numbers left in the name never stay there. At its start ("1/0 cup sugar") the
  /// numbers, symbols and units go to notes; later, a number after a joiner ("eggs + 1
  /// yolk", "and 2 …") or before a unit goes to notes with the rest of the name. A number
  /// glued to letters or a symbol is part of a word ("2% milk", "7up", "5-spice"), and
  /// "00" names a flour. Returns the new end; `start` moves past a leading stray amount.
  mutating func cutStrayAmounts(_ start: inout Int, _ end: Int) -> Int {
    var lead = start
    while lead < end, case .symbol = tokens[lead].kind { lead += 1 }  // "+ 2 eggs"
    let first = lead
    while lead < end, isStray(lead, end) || (lead > first && (tokens[lead].kind != .word || unit(at: lead, end) != nil)) {
      lead += 1
    }
    if lead > first {
      addNote(start..<lead)
      start = lead
    }
    for index in start..<end where isStray(index, end) {
      let cut = index > start && isJoiner(tokens[index - 1]) ? index - 1 : index
      guard cut < index || unit(at: index + 1, end) != nil || index + 1 == end else { continue }
      guard tokens[start..<cut].contains(where: \.isWord) else { continue }
      addNote(cut..<end)
      return cut
    }
    return end
  }

  private func isStray(_ index: Int, _ end: Int) -> Bool {
    let token = tokens[index]
    guard token.number != nil else { return false }
    if token.isInteger, token.text.hasPrefix("0"), token.text.count > 1 { return false }  // "00 flour"
    return endsCleanly(index, end) || (index + 1 < end && tokens[index + 1].isSymbol("/"))
  }

  private func isJoiner(_ token: LineToken) -> Bool {
    token.isSymbol("+") || token.isSymbol("&") || token.is("and") || token.is("plus") || token.is("or")
  }

  // MARK: - Name and note words

  /// The name between `start` and `end`: leading note words and trailing note phrases move
  /// to notes, the rest is folded like `SemanticKey.normalizedName`, with stray
  /// `.,;:-*•·` trimmed from its ends.
  mutating func parseName(_ start: Int, _ end: Int) -> String {
    // Words as the line spaces them: glued tokens are one word ("2%", "t-bone").
    var words: [(raw: String, folded: String, position: Int)] = []
    var index = start
    while index < end {
      var last = index + 1
      while last < end, !tokens[last].spaceBefore, tokens[last].start == tokens[last - 1].end { last += 1 }
      let raw = quote(index..<last)
      let folded =
        last == index + 1 && tokens[index].isWord && tokens[index].text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x2E })
        ? tokens[index].key : SemanticKey.normalizedName(raw)
      words.append((raw, folded, tokens[index].start))
      index = last
    }
    let folded = words.map(\.folded)

    // Leading note words; the last word always stays the name.
    var first = 0
    while first < words.count - 1 {
      let length = Self.noteLength(folded, at: first, leadingNoteSoFar: first > 0)
      guard length > 0, first + length < words.count else { break }
      first += length
    }
    if first > 0 {
      notes.append((words[0].position, folded[0..<first].joined(separator: " ")))
    }

    // Trailing note phrases.
    var last = words.count
    var matched = true
    while matched {
      matched = false
      for phrase in TrailingNotePhrases.phrases where last - first > phrase.count {
        if folded[(last - phrase.count)..<last].elementsEqual(phrase) {
          last -= phrase.count
          notes.append((words[last].position, phrase.joined(separator: " ")))
          matched = true
          break
        }
      }
    }
    guard first < last else { return "" }
    let raw = words[first..<last].map(\.raw).joined(separator: " ")
    return Self.trimmingPunctuation(SemanticKey.normalizedName(raw))
  }

  /// How many words at `index` form a leading note (0 if none).
  private static func noteLength(_ words: [String], at index: Int, leadingNoteSoFar: Bool) -> Int {
    for product in NoteWords.productNames where words[index...].starts(with: product) {
      return 0
    }
    if index + 1 < words.count, NoteWords.phrases.contains(where: { $0[0] == words[index] && $0[1] == words[index + 1] }) {
      return 2
    }
    if NoteWords.preparation.contains(words[index]) || NoteWords.size.contains(words[index]) {
      return 1
    }
    if NoteWords.adverbs.contains(words[index]), index + 1 < words.count,
      NoteWords.preparation.contains(words[index + 1])
    {
      return 2
    }
    if leadingNoteSoFar, NoteWords.joiners.contains(words[index]), index + 1 < words.count {
      let rest = noteLength(words, at: index + 1, leadingNoteSoFar: false)
      return rest > 0 ? 1 + rest : 0
    }
    return 0
  }
}
