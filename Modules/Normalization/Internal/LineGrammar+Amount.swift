/// Amount rules: what stands before the name — qualifiers, the quantity, a package size,
/// the unit, a range or sum with units, an equivalent in another unit.
///
///     amount     := lead* (quantity | article | vague)? package? unit? unit-range? added? equivalent? "of"?
///     lead       := about | approx | ~ | scant | heaping | generous | …   -- to notes
///     article    := "a" | "an"        -- 1, only before a unit or a package ("a pinch of salt")
///     vague      := "a"? (few | several | some)                         -- to notes, no quantity
///     package    := "x"? number "-"? measure container?  | "(" number "-"? measure "each"? ")" container
///     unit-range := ("-" | "to") number same-unit                       -- ¼ cup-⅓ cup
///     added      := ("plus" | "+" | "and") number unit                  -- 1 cup plus 2 tablespoons
///     equivalent := "/" number unit | "(" number unit ")"               -- 1 cup / 240 ml, (45 g)
struct AmountMatch {
  var start: Int
  var end: Int
  var quantity: Double?
  var upperBound: Double?
  var unit: UnitTable.Entry?
  var packageSize: IngredientLine.Amount?
  var equivalent: IngredientLine.Amount?
  var notes: [(position: Int, text: String)] = []
  var usedGroups: Set<Int> = []
}

extension LineGrammar {
  /// The amount at `index`, or nil. With `nameElsewhere` (an amount after a comma or a
  /// colon, or in brackets) a count unit may end it ("garlic, 2 cloves").
  func leadingAmount(at start: Int, _ end: Int, nameElsewhere: Bool = false) -> AmountMatch? {
    guard start < end else { return nil }
    var index = start
    var match = AmountMatch(start: start, end: start)
    while index + 1 < end, startsQuantity(index + 1, end) {
      let token = tokens[index]
      if token.isSymbol("~") {
        match.notes.append((token.start, "about"))
      } else if token.isWord, token.classes.contains(.lead) {
        match.notes.append((token.start, token.key))
      } else {
        break
      }
      index += 1
    }
    if let quantity = quantity(at: index, end) {
      if quantity.upperBound == nil, quantity.end == index + 1, let package = packageSize(at: index, end), package.container {
        // "400g can chickpeas", "2-inch piece ginger": the size of one package, no count.
        match.packageSize = package.size
        if let note = package.note { match.notes.append(note) }
        return readUnit(&match, at: package.end, end, nameElsewhere: true)
      }
      if quantity.end < end, quantity.upperBound == nil, tokens[quantity.end].isSymbol("-"), !tokens[quantity.end].spaceBefore {
        return nil  // "5-spice": a word, not an amount
      }
      match.quantity = quantity.value
      match.upperBound = quantity.upperBound
      index = quantity.end
    } else if tokens[index].isWord, tokens[index].classes.contains(.article), index + 1 < end,
      !tokens[index + 1].classes.contains(.vague)
    {
      // "a pinch of salt", "a 400 g tin of tomatoes": 1 only when a unit or package follows.
      match.quantity = 1
      guard var counted = readMeasure(match, at: index + 1, end, nameElsewhere: nameElsewhere),
        counted.unit != nil || counted.packageSize != nil, counted.end < end || nameElsewhere
      else { return nil }
      counted.start = start
      return counted
    } else if let vagueEnd = vague(at: index, end) {
      match.notes.append((tokens[index].start, quote(index..<vagueEnd).lowercased()))
      var read = readMeasure(match, at: vagueEnd, end, nameElsewhere: nameElsewhere) ?? match
      read.end = max(read.end, vagueEnd)
      return read
    } else if let bare = bareUnit(at: index, end) {
      match.unit = bare.entry
      match.notes += bare.qualifiers
      match.end = bare.end < end && tokens[bare.end].is("of") ? bare.end + 1 : bare.end
      return match
    } else {
      return nil
    }
    return readMeasure(match, at: index, end, nameElsewhere: nameElsewhere)
      ?? {
        var plain = match
        plain.end = index
        return plain
      }()
  }

  /// Whether a quantity (or "a"/"an") starts at `index`.
  private func startsQuantity(_ index: Int, _ end: Int) -> Bool {
    guard index < end else { return false }
    if single(at: index, end) != nil { return true }
    return tokens[index].isWord && tokens[index].classes.contains(.article)
  }

  /// "a few", "few", "several", "some" before another word: the index after them.
  private func vague(at index: Int, _ end: Int) -> Int? {
    var next = index
    if next < end, tokens[next].isWord, tokens[next].classes.contains(.article) { next += 1 }
    guard next + 1 < end, tokens[next].isWord, tokens[next].classes.contains(.vague) else { return nil }
    return next + 1
  }

  /// A unit with no quantity: taken only when "of" follows ("head of lettuce", "cup of
  /// sugar") or it may stand bare and a name follows ("pinch salt"); never a one-letter
  /// spelling.
  private func bareUnit(at index: Int, _ end: Int) -> (entry: UnitTable.Entry, end: Int, qualifiers: [(position: Int, text: String)])? {
    guard let match = unitWithQualifiers(at: index, end), match.spelling.count >= 2, match.end < end,
      match.entry.bareAllowed || tokens[match.end].is("of")
    else { return nil }
    return (match.entry, match.end, match.qualifiers)
  }

  /// Everything after the quantity: package size, unit, unit range, added amount,
  /// equivalent and "of". Nil when nothing after the quantity is part of the amount.
  private func readMeasure(_ start: AmountMatch, at index: Int, _ end: Int, nameElsewhere: Bool) -> AmountMatch? {
    var match = start
    var next = index
    if let package = packageSize(at: next, end) {
      match.packageSize = package.size
      if let note = package.note { match.notes.append(note) }
      next = package.end
      return readUnit(&match, at: next, end, nameElsewhere: nameElsewhere || package.container)
    }
    return readUnit(&match, at: next, end, nameElsewhere: nameElsewhere)
  }

  /// The unit and what may follow it.
  private func readUnit(_ match: inout AmountMatch, at index: Int, _ end: Int, nameElsewhere: Bool) -> AmountMatch? {
    var next = index
    guard let unit = unitWithQualifiers(at: next, end),
      unit.entry.kind == .measure || unit.end < end || nameElsewhere
    else {
      match.end = next
      return match.packageSize == nil ? nil : match
    }
    match.unit = unit.entry
    match.notes += unit.qualifiers
    next = unit.end
    // "¼ cup-⅓ cup", "1 tbsp to 2 tbsp"
    if match.upperBound == nil, let range = rangeEnd(at: next, end), let again = self.unit(at: range.end, end),
      again.entry.canonical == unit.entry.canonical
    {
      match.upperBound = range.value
      next = again.end
    }
    // "2 cans (15 oz each) black beans"
    if match.packageSize == nil, unit.entry.kind == .count, let size = groupSize(slot: next) {
      match.packageSize = size
    }
    if let added = addedAmount(at: next, to: match, end) {
      match = added
      next = added.end
    }
    if unit.entry.kind == .measure || match.packageSize == nil, let equivalent = equivalent(at: next, end) {
      match.equivalent = equivalent.amount
      if let note = equivalent.note { match.notes.append(note) }
      next = equivalent.end
    }
    if next < end, tokens[next].is("of") { next += 1 }
    match.end = next
    return match
  }

  // MARK: - Units

  struct UnitMatch {
    let entry: UnitTable.Entry
    let spelling: String
    let end: Int
    var qualifiers: [(position: Int, text: String)] = []
  }

  /// A unit spelling of one to three words ("cup", "fl oz", "imp fl oz"); "T" and "t" by case.
  /// Only a word that starts a spelling of several words builds the longer keys; a single
  /// word's unit was looked up when the line was cut (`LineToken.unitIndex`).
  func unit(at index: Int, _ end: Int) -> UnitMatch? {
    guard index < end, tokens[index].isWord else { return nil }
    if tokens[index].classes.contains(.unitStart) {
      return severalWordUnit(at: index, end) ?? singleWordUnit(at: index)
    }
    return singleWordUnit(at: index)
  }

  private func singleWordUnit(at index: Int) -> UnitMatch? {
    let token = tokens[index]
    guard token.unitIndex >= 0 else { return nil }
    // The spelling's length is all a rule reads of it; "T" and "t" have the key's length.
    return UnitMatch(entry: UnitTable.entries[Int(token.unitIndex)], spelling: token.key, end: index + 1)
  }

  private func severalWordUnit(at index: Int, _ end: Int) -> UnitMatch? {
    let key = tokens[index].key
    if index + 2 < end, tokens[index + 1].isWord, tokens[index + 2].isWord {
      let spelling = key + " " + tokens[index + 1].key + " " + tokens[index + 2].key
      if let entry = UnitTable.bySpelling[spelling] { return UnitMatch(entry: entry, spelling: spelling, end: index + 3) }
    }
    if index + 1 < end, tokens[index + 1].isWord, let entry = UnitTable.bySpelling[key + " " + tokens[index + 1].key] {
      return UnitMatch(entry: entry, spelling: key + " " + tokens[index + 1].key, end: index + 2)
    }
    return nil
  }

  /// Qualifier words ("heaping", "large") and then a unit; the qualifiers become notes.
  func unitWithQualifiers(at index: Int, _ end: Int) -> UnitMatch? {
    var next = index
    var qualifiers: [(position: Int, text: String)] = []
    while next < end, tokens[next].isWord {
      if var match = unit(at: next, end) {
        match.qualifiers = qualifiers
        return match
      }
      guard tokens[next].classes.contains(.unitQualifier) else { return nil }
      qualifiers.append((tokens[next].start, tokens[next].key))
      next += 1
    }
    return nil
  }

  // MARK: - Package size, added amounts, equivalents

  /// The size of each package after a count: "1 14-ounce can", "1 400 g jar", "2 x 400g
  /// cans", "3 x 120 g cod fillets" (after "x" no container is needed), "2 (14.5-ounce)
  /// cans". `container` says whether a count unit follows.
  func packageSize(at index: Int, _ end: Int)
    -> (size: IngredientLine.Amount, note: (position: Int, text: String)?, end: Int, container: Bool)?
  {
    if let size = groupSize(slot: index) {
      // "2 (14.5-ounce) cans", "2 (6-ounce) salmon fillets": the group itself stays a note.
      let container = unit(at: index, end).map { $0.entry.kind == .count } ?? false
      return (size, nil, index, container)
    }
    var next = index
    var multiplier = false
    if next < end, tokens[next].is("x") {
      next += 1
      multiplier = true
    }
    guard next < end, let value = tokens[next].amount else { return nil }
    let sizeStart = next
    next += 1
    if next < end, tokens[next].isSymbol("-"), !tokens[next].spaceBefore { next += 1 }
    guard let measure = unit(at: next, end), measure.entry.kind == .measure else { return nil }
    let size = IngredientLine.Amount(quantity: value, unit: measure.entry.canonical)
    let note = (tokens[sizeStart].start, SemanticKey.normalizedName(quote(sizeStart..<measure.end)))
    // A count word that ends the line is the food, not its container: "¼ tsp cloves".
    if let container = unit(at: measure.end, end), container.entry.kind == .count, container.end < end {
      return (size, note, measure.end, true)
    }
    return multiplier ? (size, note, measure.end, false) : nil
  }

  /// A bracketed size right before `slot`: "(14.5-ounce)", "(12 oz)", "(15 oz each)".
  private func groupSize(slot: Int) -> IngredientLine.Amount? {
    guard let offset = groups.firstIndex(where: { $0.slot == slot }) else { return nil }
    let inner = groupGrammar(offset)
    let tokens = inner.tokens
    guard let value = tokens.first?.amount, inner.groups.isEmpty else { return nil }
    var next = 1
    if next < tokens.count, tokens[next].isSymbol("-"), !tokens[next].spaceBefore { next += 1 }
    guard let measure = inner.unit(at: next, tokens.count), measure.entry.kind == .measure else { return nil }
    next = measure.end
    if next < tokens.count, tokens[next].is("each") || tokens[next].is("ea") { next += 1 }
    guard next == tokens.count else { return nil }
    return IngredientLine.Amount(quantity: value, unit: measure.entry.canonical)
  }

  /// "plus 2 tablespoons", "+ 2 tbsp", "and 2 tbsp" after a unit: added in the first
  /// unit when both convert (`UnitSums`), else the addition goes to notes as written.
  private func addedAmount(at index: Int, to match: AmountMatch, _ end: Int) -> AmountMatch? {
    guard index < end, let first = match.unit, let quantity = match.quantity,
      tokens[index].is("plus") || tokens[index].is("and") || tokens[index].isSymbol("+"),
      let second = self.quantity(at: index + 1, end), second.upperBound == nil,
      let secondUnit = unit(at: second.end, end)
    else { return nil }
    var result = match
    result.end = secondUnit.end
    if let sum = UnitSums.add(quantity, first.canonical, second.value, secondUnit.entry.canonical) {
      result.quantity = sum
      if let upper = match.upperBound { result.upperBound = UnitSums.add(upper, first.canonical, second.value, secondUnit.entry.canonical) }
    } else {
      result.notes.append((tokens[index].start, SemanticKey.normalizedName(quote(index..<secondUnit.end))))
    }
    return result
  }

  /// "/ 240 ml" or "/7oz" after a unit, or a group right after it that holds only an
  /// amount ("(45 g)", "(2 sticks)"). A slash's text goes to notes; a group is a note anyway.
  private func equivalent(at index: Int, _ end: Int) -> (amount: IngredientLine.Amount, note: (position: Int, text: String)?, end: Int)? {
    if index < end, tokens[index].isSymbol("/"), let amount = leadingAmount(at: index + 1, end, nameElsewhere: true),
      let quantity = amount.quantity, let unit = amount.unit, amount.packageSize == nil
    {
      let note = (tokens[index + 1].start, SemanticKey.normalizedName(quote((index + 1)..<amount.end)))
      return (IngredientLine.Amount(quantity: quantity, upperBound: amount.upperBound, unit: unit.canonical), note, amount.end)
    }
    guard let offset = groups.firstIndex(where: { $0.slot == index }) else { return nil }
    let inner = groupGrammar(offset)
    guard let amount = inner.leadingAmount(at: 0, inner.tokens.count, nameElsewhere: true), amount.end == inner.tokens.count,
      let quantity = amount.quantity, let unit = amount.unit, inner.groups.isEmpty
    else { return nil }
    return (IngredientLine.Amount(quantity: quantity, upperBound: amount.upperBound, unit: unit.canonical), nil, index)
  }
}
