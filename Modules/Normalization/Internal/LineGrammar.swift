/// The grammar behind `IngredientLine.parse`: rules over the tokens of `LineTokenizer`.
///
/// A line is read as
///
///     line     := marker? (label ":")? head ("," note)*     -- or "name: amount", "name, amount"
///     head     := lead? amount? name alternative?
///     amount   := qualifier* quantity package? unit unit-range? added? equivalent? "of"?
///     quantity := number | number-words | range | sum        (LineGrammar+Quantity)
///     package  := "x"? size container? | "(" size ")"        (LineGrammar+Measure)
///     name     := note-words* words trailing-phrase*         (LineGrammar+Name)
///
/// Each rule is a function from a token position to a match (or nil), so each form can be
/// tested on its own; `parse` tries them in the order above. When no rule reads an
/// amount, the quantity stays empty, and numbers left in the name go to notes.
struct LineGrammar {
  /// The tokens outside brackets; bracketed groups are in `groups`.
  private(set) var tokens: [LineToken]
  /// Bracketed groups and the index in `tokens` of the token after each.
  private(set) var groups: [(slot: Int, token: LineToken)]
  var notes: [(position: Int, text: String)] = []
  /// Groups a rule took as an amount (not notes).
  var usedGroups: Set<Int> = []
  /// The grammars of the groups' contents, each cut once, when a rule first reads it.
  private let groupGrammars = GroupGrammars()

  var quantity: Double?
  var upperBound: Double?
  var unit: UnitTable.Entry?
  var packageSize: IngredientLine.Amount?
  var equivalent: IngredientLine.Amount?
  var alternative: String?

  init(_ line: String) {
    let scanned = LineTokenizer.tokens(of: line)
    var main: [LineToken] = []
    var groups: [(slot: Int, token: LineToken)] = []
    main.reserveCapacity(scanned.tokens.count)
    for token in scanned.tokens {
      if token.isGroup { groups.append((main.count, token)) } else { main.append(token) }
    }
    // Before the first separator, a comma between two note words is a space: "boneless,
    // skinless chicken".
    var index = 1
    while index + 1 < main.count, !main[index].isSymbol(";") {
      if main[index].isSymbol(",") {
        guard Self.isNoteWord(main[index - 1]), Self.isNoteWord(main[index + 1], orAdverb: true) else { break }
        main.remove(at: index)
        main[index].spaceBefore = true
        for offset in groups.indices where groups[offset].slot > index { groups[offset].slot -= 1 }
      }
      index += 1
    }
    tokens = main
    self.groups = groups
    dropCommaAfterCount()
  }

  /// "1, 14 oz can of milk", "1/8, white onion": a comma right after a lone count, with
  /// more of the line after it, is a slip; the line reads as if it were not there.
  private mutating func dropCommaAfterCount() {
    let start = skipListMarker(0)
    guard let count = quantity(at: start, tokens.count), count.end + 1 < tokens.count, tokens[count.end].isSymbol(","),
      tokens[count.end + 1].isWord || tokens[count.end + 1].number != nil
    else { return }
    tokens.remove(at: count.end)
    tokens[count.end].spaceBefore = true
    for offset in groups.indices where groups[offset].slot > count.end { groups[offset].slot -= 1 }
  }

  // MARK: - The line rule

  mutating func parse() -> IngredientLine {
    let end = splitAtSeparator()
    let start = skipListMarker(0)
    var amount: AmountMatch?
    var nameStart = start
    var nameEnd = end
    if let leading = leadingAmount(at: start, end) {
      amount = leading
      nameStart = leading.end
    } else if let label = labelledAmount(at: start, end) {
      amount = label.amount
      if label.nameBefore {
        nameEnd = label.colon  // "Butter: 120 g"
      } else {
        addNote(start..<label.colon)  // "For the sauce: 2 tbsp soy sauce"
        nameStart = label.amount.end
      }
    } else if let part = partOfAmount(at: start, end) {
      addNote(start..<part.of)  // "juice of 1 lemon"
      amount = part.amount
      nameStart = part.amount.end
    } else if let trailing = trailingAmount(from: start, end) {
      amount = trailing  // "salt, 1 tsp", "flour 200 g"
      nameEnd = trailing.start
    }
    if let amount { take(amount) } else { takeGroupAmount() }
    nameEnd = cutAlternative(nameStart, nameEnd)
    let afterAmount = nameStart
    nameEnd = cutStrayAmounts(&nameStart, nameEnd)
    if nameStart > afterAmount, let amount, amount.unit == nil, amount.packageSize == nil {
      // "1 3/2 cups flour": more numbers right after a count; which one counts is unsure.
      quantity = nil
      upperBound = nil
      addNote(amount.start..<amount.end)
    }
    takeGroupEquivalent()
    let name = parseName(nameStart, nameEnd)
    for (index, group) in groups.enumerated() where !usedGroups.contains(index) {
      addNote(group.token.text, at: group.token.start)
    }
    let noteTexts = notes.sorted { $0.position < $1.position }.map(\.text)
    return IngredientLine(
      quantity: quantity, quantityUpperBound: upperBound, unit: unit?.canonical, name: name,
      canonicalName: SemanticKey.canonicalIngredientName(name),
      notes: noteTexts.isEmpty ? nil : noteTexts.joined(separator: "; "),
      packageSize: packageSize, equivalent: equivalent, alternative: alternative
    )
  }

  /// Records what an amount rule read.
  private mutating func take(_ amount: AmountMatch) {
    quantity = amount.quantity
    upperBound = amount.upperBound
    unit = amount.unit
    packageSize = amount.packageSize
    equivalent = amount.equivalent
    notes += amount.notes
    usedGroups.formUnion(amount.usedGroups)
  }

  // MARK: - Separators

  /// Everything after the first "," or ";" goes to notes, one note per part ("sifted,
  /// divided" → "sifted; divided"), unless the first part is an amount and the head has
  /// none ("salt, 1 tsp"). A comma between two note words ("boneless, skinless chicken")
  /// does not split. Returns the end of the head.
  private mutating func splitAtSeparator() -> Int {
    var index = 0
    while index < tokens.count {
      defer { index += 1 }
      guard tokens[index].isSymbol(",") || tokens[index].isSymbol(";") else { continue }
      var partStart = index + 1
      var parts: [Range<Int>] = []
      for separator in (index + 1)...tokens.count
      where separator == tokens.count || tokens[separator].isSymbol(",") || tokens[separator].isSymbol(";") {
        parts.append(partStart..<separator)
        partStart = separator + 1
      }
      for (offset, part) in parts.enumerated() {
        if offset == 0, leadingAmount(at: skipListMarker(0), index) == nil,
          let amount = leadingAmount(at: part.lowerBound, part.upperBound, nameElsewhere: true), amount.end == part.upperBound,
          amount.quantity != nil
        {
          pendingTrailing = amount
          continue
        }
        addNote(part)
      }
      return index
    }
    return tokens.count
  }

  /// An amount after a comma, read by `trailingAmount`.
  private var pendingTrailing: AmountMatch?

  private static func isNoteWord(_ token: LineToken, orAdverb: Bool = false) -> Bool {
    token.isWord && (token.classes.contains(.noteWord) || (orAdverb && token.classes.contains(.adverb)))
  }

  /// Skips a list bullet: "*" (every bullet is "*" once prepared), or "-" before a space
  /// or a number (no amount is negative: "-2 cups flour" is a list item).
  private func skipListMarker(_ start: Int) -> Int {
    guard start + 1 < tokens.count else { return start }
    if tokens[start].isSymbol("*") { return start + 1 }
    let next = tokens[start + 1]
    return tokens[start].isSymbol("-") && (next.spaceBefore || next.number != nil) ? start + 1 : start
  }

  // MARK: - Amounts elsewhere in the head

  /// "Butter: 120 g" (the name, then its amount) or "For the sauce: 2 tbsp soy sauce" (a
  /// label, then the line).
  private func labelledAmount(at start: Int, _ end: Int) -> (colon: Int, amount: AmountMatch, nameBefore: Bool)? {
    guard let colon = tokens[start..<end].firstIndex(where: { $0.isSymbol(":") }), colon > start,
      var amount = leadingAmount(at: colon + 1, end), amount.quantity != nil
    else { return nil }
    amount.start = colon + 1
    return (colon, amount, amount.end == end)
  }

  /// "juice of 1 lemon", "zest and juice of 2 limes", "finely grated zest of 1 orange": the
  /// amount counts the fruit; the part taken ("juice") goes to notes.
  private func partOfAmount(at start: Int, _ end: Int) -> (of: Int, amount: AmountMatch)? {
    var index = start
    var sawPart = false
    while index < end, tokens[index].isWord, index - start < 5 {
      let key = tokens[index].key
      if key == "of" { break }
      guard Self.partWords.contains(key) || Self.partModifiers.contains(key) else { return nil }
      sawPart = sawPart || Self.partWords.contains(key)
      index += 1
    }
    guard sawPart, index < end, tokens[index].is("of"), let amount = leadingAmount(at: index + 1, end),
      amount.quantity != nil, amount.end < end
    else { return nil }
    return (index, amount)
  }

  private static let partWords: Set<String> = ["juice", "zest", "rind", "peel"]
  private static let partModifiers: Set<String> = ["and", "grated", "finely", "freshly", "squeezed", "the"]

  /// An amount after the name: "salt, 1 tsp" (after a comma) or "flour 200 g" (a number
  /// and its unit ending the head).
  private func trailingAmount(from start: Int, _ end: Int) -> AmountMatch? {
    if var pending = pendingTrailing {
      pending.start = end
      return pending
    }
    guard end - start >= 3 else { return nil }
    for index in stride(from: end - 2, to: start, by: -1) where tokens[index].amount != nil {
      guard var amount = leadingAmount(at: index, end), amount.end == end, amount.unit != nil,
        tokens[start..<index].allSatisfy(\.isWord)
      else { return nil }
      amount.start = index
      return amount
    }
    return nil
  }

  /// A line with no amount outside brackets takes one that fills a group: "sugar (100 g)".
  private mutating func takeGroupAmount() {
    for index in groups.indices {
      let inner = groupGrammar(index)
      guard let amount = inner.leadingAmount(at: 0, inner.tokens.count), amount.end == inner.tokens.count,
        amount.quantity != nil, amount.unit != nil, inner.groups.isEmpty
      else { continue }
      take(amount)
      usedGroups = [index]
      return
    }
  }

  /// A group anywhere that holds exactly an amount with a unit is the same amount in
  /// another unit, when the line's amount has a unit: "2 ¼ tsp yeast (1 packet)".
  private mutating func takeGroupEquivalent() {
    guard equivalent == nil, quantity != nil, unit != nil else { return }
    for index in groups.indices where !usedGroups.contains(index) {
      let inner = groupGrammar(index)
      guard inner.tokens.first?.amount != nil, let amount = inner.leadingAmount(at: 0, inner.tokens.count, nameElsewhere: true),
        amount.end == inner.tokens.count, amount.notes.isEmpty, let value = amount.quantity, let unit = amount.unit,
        inner.groups.isEmpty, packageSize.map({ $0.quantity != value || $0.unit != unit.canonical }) ?? true
      else { continue }
      equivalent = IngredientLine.Amount(quantity: value, upperBound: amount.upperBound, unit: unit.canonical)
      return
    }
  }

  /// The grammar of the content of group `offset`.
  func groupGrammar(_ offset: Int) -> LineGrammar {
    if let grammar = groupGrammars.byOffset[offset] { return grammar }
    let grammar = LineGrammar(groups[offset].token.text)
    groupGrammars.byOffset[offset] = grammar
    return grammar
  }

  // MARK: - Notes

  mutating func addNote(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    addNote(quote(range), at: tokens[range.lowerBound].start)
  }

  mutating func addNote(_ raw: String, at position: Int) {
    let text = Self.trimmingPunctuation(SemanticKey.normalizedName(raw))
    if !text.isEmpty { notes.append((position, text)) }
  }

  /// The tokens as written, one space where the line had space (or a group) between them.
  func quote(_ range: Range<Int>) -> String {
    var text = ""
    for index in range {
      if index > range.lowerBound, tokens[index].spaceBefore || tokens[index].start != tokens[index - 1].end {
        text += " "
      }
      text += tokens[index].text
    }
    return text
  }

  /// `text` without the `.,;:-*•·` and spaces at its ends. ASCII text (most names and
  /// notes) is trimmed on its bytes: there every byte is a character.
  static func trimmingPunctuation(_ text: String) -> String {
    var copy = text
    let trimmed = copy.withUTF8 { bytes -> Range<Int>? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      var lower = 0
      var upper = bytes.count
      while lower < upper, isASCIIPunctuationEdge(bytes[lower]) { lower += 1 }
      while upper > lower, isASCIIPunctuationEdge(bytes[upper - 1]) { upper -= 1 }
      return lower..<upper
    }
    if let trimmed {
      if trimmed.count == text.utf8.count { return text }
      var copy = text
      return copy.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[trimmed]), as: UTF8.self) }
    }
    var result = Substring(text)
    while let first = result.first, isPunctuationEdge(first) { result = result.dropFirst() }
    while let last = result.last, isPunctuationEdge(last) { result = result.dropLast() }
    return result.startIndex == text.startIndex && result.endIndex == text.endIndex ? text : String(result)
  }

  @inline(__always) private static func isASCIIPunctuationEdge(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x2E, 0x2C, 0x3B, 0x3A, 0x2D, 0x2A, 0x20: true  // . , ; : - * space
    default: false
    }
  }

  private static func isPunctuationEdge(_ character: Character) -> Bool {
    switch character {
    case ".", ",", ";", ":", "-", "*", "•", "·", " ": true
    default: false
    }
  }
}

/// The grammars of a line's groups, kept by a grammar's rules (which do not mutate it)
/// so that each group is cut into tokens once however many rules read it. A group's
/// text never changes after the grammar is made.
final class GroupGrammars {
  var byOffset: [Int: LineGrammar] = [:]
}
