/// Quantity rules: one number (digits or words), a range of two, a sum of two.
///
///     quantity := "between" single "and" single          -- between 1 and 4
///               | single (("and" | "+") single)? range?  -- 2 and ½, ¼ + ⅛, one and a half
///     range    := ("-" | "to" | "or" | "-to-") single    -- 1-2, 1 to 2, 1-to-2, 1 or 2
///     single   := number | number-words
extension LineGrammar {
  /// A quantity at `index`: its value, the upper bound of a range, and the index after it.
  func quantity(at index: Int, _ end: Int) -> (value: Double, upperBound: Double?, end: Int)? {
    guard index < end else { return nil }
    if tokens[index].is("between"), let low = single(at: index + 1, end), low.end < end, tokens[low.end].is("and"),
      let high = single(at: low.end + 1, end)
    {
      return (low.value, high.value, high.end)
    }
    guard let first = single(at: index, end) else { return nil }
    var value = first.value
    var next = first.end
    if let sum = addedPart(at: next, to: value, end) {
      value += sum.value
      next = sum.end
    }
    if let range = rangeEnd(at: next, end) {
      return (value, range.value, range.end)
    }
    return (value, nil, next)
  }

  /// "and ½" after a whole number ("2 and ½", "one and a half"), "+ ⅛" after any.
  private func addedPart(at index: Int, to value: Double, _ end: Int) -> (value: Double, end: Int)? {
    guard index < end else { return nil }
    let plus = tokens[index].isSymbol("+")
    guard plus || tokens[index].is("and"), let second = single(at: index + 1, end) else { return nil }
    guard plus || (value == value.rounded() && second.value < 1) else { return nil }
    return second
  }

  /// The upper end of a range: "-", "to", "or" (after a space) or "-to-", then a number.
  func rangeEnd(at index: Int, _ end: Int) -> (value: Double, end: Int)? {
    var next = index
    var separated = false
    if next < end, tokens[next].isSymbol("-") {
      next += 1
      separated = true
    }
    if next < end, tokens[next].is("to") || (tokens[next].is("or") && tokens[next].spaceBefore) {
      next += 1
      separated = true
      if next < end, tokens[next].isSymbol("-") { next += 1 }
    }
    guard separated, let upper = single(at: next, end) else { return nil }
    return upper
  }

  /// One number written as digits (see `endsCleanly`) or in words.
  func single(at index: Int, _ end: Int) -> (value: Double, end: Int)? {
    guard index < end else { return nil }
    if let value = tokens[index].amount {
      return endsCleanly(index, end) ? (value, index + 1) : nil
    }
    return tokens[index].isWord ? numberWords(at: index, end) : nil
  }

  /// Whether the number at `index` is a quantity by what follows it: the end, a space,
  /// a separator, a bracket, a unit glued to it ("200g"), "x" and a number ("2x250ml"), or
  /// a hyphen before a number, a unit or "to" ("2-3", "14-ounce", "1-to-2"). Not "2%",
  /// "7up", "1/0", "5-spice".
  func endsCleanly(_ index: Int, _ end: Int) -> Bool {
    let next = index + 1
    guard next < end else { return true }
    let token = tokens[next]
    if token.spaceBefore { return true }
    switch token.kind {
    case .word:
      if token.key == "x" { return next + 1 < end && tokens[next + 1].amount != nil }
      return unit(at: next, end) != nil
    case .symbol(let byte):
      if byte == UInt8(ascii: "-") {
        guard next + 1 < end else { return false }
        let after = tokens[next + 1]
        return after.amount != nil || after.is("to") || unit(at: next + 1, end) != nil
      }
      return byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")
    case .group: return true
    case .number: return false
    }
  }

  /// Number words: "seven", "twenty-five", "twenty five", "two thirds", "two-thirds",
  /// "one half", "a half", "a quarter", "half a" / "half an", "half cup", "a couple (of)",
  /// "couple of". "a"/"an" alone is no number here (see `LineGrammar.article`).
  func numberWords(at index: Int, _ end: Int) -> (value: Double, end: Int)? {
    let classes = tokens[index].classes
    let key = tokens[index].key
    // Every other word is no number word: one bit test instead of the lookups below.
    guard classes.contains(.numberWord) || key.utf8.contains(UInt8(ascii: "-")) else { return nil }
    let next = index + 1
    let nextIsWord = next < end && tokens[next].isWord
    let nextKey = nextIsWord ? tokens[next].key : ""
    if classes.contains(.article) {
      if let denominator = NumberWords.denominators[nextKey], !nextKey.hasSuffix("s") {
        return (1 / denominator, skipOfA(next + 1, end))  // "a half cup", "a quarter of a cup"
      }
      if NumberWords.couple.contains(nextKey) {
        return (2, next + 1 < end && tokens[next + 1].is("of") ? next + 2 : next + 1)  // "a couple of"
      }
      return nil
    }
    if NumberWords.couple.contains(key), nextKey == "of" { return (2, next + 1) }
    if key == "half" || key == "quarter" || key == "third" {
      // "half a cup", "half an onion", "half cup"; not "half and half".
      guard let denominator = NumberWords.denominators[key] else { return nil }
      if nextIsWord, tokens[next].classes.contains(.article) { return (1 / denominator, next + 1) }
      return unit(at: next, end) != nil ? (1 / denominator, next) : nil
    }
    if let value = NumberWords.value(key) {
      var total = value
      var after = next
      if NumberWords.tens[key] != nil, let unitValue = NumberWords.units[nextKey], unitValue < 10 {
        total += unitValue  // "twenty five"
        after += 1
      }
      if after < end, tokens[after].isWord, let denominator = NumberWords.denominators[tokens[after].key], total < denominator {
        return (total / denominator, skipOfA(after + 1, end))  // "two thirds", "one half"
      }
      return (total, after)
    }
    // "two-thirds", "one-half"
    guard let hyphen = key.firstIndex(of: "-"), let count = NumberWords.units[String(key[..<hyphen])],
      let denominator = NumberWords.denominators[String(key[key.index(after: hyphen)...])], count < denominator
    else { return nil }
    return (count / denominator, skipOfA(next, end))
  }

  /// Skips "of a"/"of an" after a fraction word ("a quarter of a cup").
  private func skipOfA(_ index: Int, _ end: Int) -> Int {
    guard index + 1 < end, tokens[index].is("of"), tokens[index + 1].classes.contains(.article) else { return index }
    return index + 2
  }
}
