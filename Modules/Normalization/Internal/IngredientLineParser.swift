import Foundation

/// The scanner behind `IngredientLine.parse`. Works on an array of characters so that
/// every note can be put back in the order it was written.
///
/// Generic over the character type: `Character` for any line, ``ASCIIByte`` for a line of
/// ASCII bytes (without carriage returns, the one ASCII pair that is a single `Character`).
/// Such a line has one `Character` per byte, and the byte's classes are read from
/// `Character`'s, so both scan the same positions and give the same result; bytes save the
/// grapheme breaking and the `Character` comparisons (most of a line's parse).
struct IngredientLineParser<Char: LineCharacter> {
  private var chars: [Char]
  private var notes: [(position: Int, text: String)] = []

  init(characters: [Char]) {
    chars = characters
  }

  // MARK: - Top level

  mutating func parse() -> IngredientLine {
    extractBracketedNotes()
    let end = splitAtFirstComma()
    var index = skipListMarker(skipSpaces(0, end), end)
    index = consumeApproximation(index, end)

    var quantity: Double?
    var upperBound: Double?
    var unit: UnitTable.Entry?
    var unitIndex = index

    if let parsed = parseQuantity(at: index, end) {
      quantity = parsed.value
      upperBound = parsed.upperBound
      index = parsed.end
      unitIndex = skipSpaces(index, end)
    } else if let (word, wordEnd) = word(at: index, end) {
      let folded = word.lowercased()
      if let value = NumberWords.table[folded] {
        quantity = value
        index = wordEnd
        unitIndex = skipSpaces(index, end)
      } else if NumberWords.articles.contains(folded),
        let match = matchUnitWithQualifiers(at: skipSpaces(wordEnd, end), end),
        hasName(after: match.end, end)
      {
        quantity = 1
        index = wordEnd
        unitIndex = skipSpaces(index, end)
      }
    }

    if quantity != nil {
      if let size = matchPackageSize(at: unitIndex, end) {
        notes.append((size.position, size.text))
        unitIndex = size.end
      }
      if let match = matchUnitWithQualifiers(at: unitIndex, end),
        match.entry.kind == .measure || hasName(after: match.end, end)
      {
        unit = match.entry
        notes.append(contentsOf: match.qualifiers)
        index = match.end
      }
    } else if let match = matchUnit(at: index, end), match.spelling.count >= 2,
      hasName(after: match.end, end),
      match.entry.bareAllowed || nextWordIsOf(match.end, end)
    {
      unit = match.entry
      index = match.end
    }
    if unit != nil, nextWordIsOf(index, end), let (_, ofEnd) = word(at: skipSpaces(index, end), end) {
      index = ofEnd
    }

    let name = parseName(from: index, end)
    let noteTexts = notes.sorted { $0.position < $1.position }.map(\.text)
    return IngredientLine(
      quantity: quantity,
      quantityUpperBound: upperBound,
      unit: unit?.canonical,
      name: name,
      canonicalName: SemanticKey.canonicalIngredientName(name),
      notes: noteTexts.isEmpty ? nil : noteTexts.joined(separator: "; ")
    )
  }

  // MARK: - Notes outside the main text

  /// Moves "(…)" and "[…]" groups (nested or unclosed ones too) to notes and blanks them
  /// out; a stray closing bracket is blanked.
  private mutating func extractBracketedNotes() {
    var depth = 0
    var start = 0
    for index in chars.indices {
      switch chars[index] {
      case "(", "[":
        if depth == 0 { start = index }
        depth += 1
      case ")", "]":
        if depth == 0 {
          chars[index] = " "
        } else {
          depth -= 1
          if depth == 0 { takeGroup(from: start, through: index, contentEnd: index) }
        }
      default:
        break
      }
    }
    if depth > 0 { takeGroup(from: start, through: chars.count - 1, contentEnd: chars.count) }
  }

  /// Records chars[start+1..<contentEnd] as a note at `start`, then blanks start...last.
  private mutating func takeGroup(from start: Int, through last: Int, contentEnd: Int) {
    if start + 1 < contentEnd { addNote(Char.string(chars[(start + 1)..<contentEnd]), at: start) }
    for index in start...last { chars[index] = " " }
  }

  /// Everything after the first comma or semicolon goes to notes, one note per part
  /// ("sifted, divided" → "sifted; divided"). Returns the end of the main text. A comma between digits ("1,5 kg") or between two note words
  /// ("boneless, skinless chicken") does not split.
  private mutating func splitAtFirstComma() -> Int {
    for index in chars.indices where chars[index] == "," || chars[index] == ";" {
      let betweenDigits =
        index > 0 && index + 1 < chars.count && isDigit(chars[index - 1]) && isDigit(chars[index + 1])
      if betweenDigits { continue }
      if chars[index] == ",", isBetweenNoteWords(index) {
        chars[index] = " "
        continue
      }
      // The tail: one note per comma- or semicolon-separated part.
      var partStart = index + 1
      for separator in (index + 1)..<chars.count + 1 {
        let isSeparator =
          separator < chars.count && (chars[separator] == "," || chars[separator] == ";")
          && !(separator + 1 < chars.count && isDigit(chars[separator - 1]) && isDigit(chars[separator + 1]))
        guard separator == chars.count || isSeparator else { continue }
        addNote(Char.string(chars[partStart..<separator]), at: partStart)
        partStart = separator + 1
      }
      return index
    }
    return chars.count
  }

  /// Whether the words on both sides of the comma at `index` are preparation or size words.
  private func isBetweenNoteWords(_ index: Int) -> Bool {
    var start = index
    while start > 0, !chars[start - 1].isWhitespace { start -= 1 }
    let after = skipSpaces(index + 1, chars.count)
    guard start < index, let (next, _) = word(at: after, chars.count) else { return false }
    let previous = SemanticKey.normalizedName(Char.string(chars[start..<index]))
    let following = SemanticKey.normalizedName(next.filter { $0 != "," })
    let noteWords = NoteWords.preparation.union(NoteWords.size)
    return noteWords.contains(previous) && (noteWords.contains(following) || NoteWords.adverbs.contains(following))
  }

  private mutating func addNote(_ raw: String, at position: Int) {
    let text = Self.trimmingPunctuation(SemanticKey.normalizedName(raw))
    if !text.isEmpty { notes.append((position, text)) }
  }

  // MARK: - Quantity

  private mutating func consumeApproximation(_ index: Int, _ end: Int) -> Int {
    if index < end, chars[index] == "~" {
      notes.append((index, "about"))
      return skipSpaces(index + 1, end)
    }
    guard let (word, wordEnd) = word(at: index, end) else { return index }
    let folded = SemanticKey.normalizedName(word).filter { $0 != "." }
    let next = skipSpaces(wordEnd, end)
    guard NoteWords.approximations.contains(folded), next < end, isDigit(chars[next]) else { return index }
    notes.append((index, folded))
    return next
  }

  /// A number or a range of two numbers ("2-3", "2 - 3", "2 to 3", "1 or 2"), which must
  /// end at a space, the end, or a unit glued to it ("200g"). Otherwise nil ("2%", "7up").
  private func parseQuantity(at start: Int, _ end: Int) -> (value: Double, upperBound: Double?, end: Int)? {
    guard let first = parseFiniteNumber(at: start, end) else { return nil }
    var result: (value: Double, upperBound: Double?, end: Int) = (first.value, nil, first.end)
    let afterFirst = skipSpaces(first.end, end)
    if afterFirst < end, chars[afterFirst] == "-",
      let second = parseFiniteNumber(at: skipSpaces(afterFirst + 1, end), end)
    {
      result = (first.value, second.value, second.end)
    } else if afterFirst > first.end, let (word, wordEnd) = word(at: afterFirst, end),
      word.lowercased() == "to" || word.lowercased() == "or",
      skipSpaces(wordEnd, end) > wordEnd,
      let second = parseFiniteNumber(at: skipSpaces(wordEnd, end), end)
    {
      result = (first.value, second.value, second.end)
    }
    guard result.end < end else { return result }
    let next = chars[result.end]
    if next.isWhitespace { return result }
    if next.isLetter, matchUnit(at: result.end, end) != nil { return result }
    return nil
  }

  /// `parseNumber`, rejecting numbers too long to be finite (a quantity is never inf or NaN).
  private func parseFiniteNumber(at start: Int, _ end: Int) -> (value: Double, end: Int)? {
    guard let number = parseNumber(at: start, end), number.value.isFinite else { return nil }
    return number
  }

  /// "2", "0.5", ".5", "1,5", "1,000", "3/4", "1 1/2", "1-1/2".
  private func parseNumber(at start: Int, _ end: Int) -> (value: Double, end: Int)? {
    guard start < end else { return nil }
    if chars[start] == ".", let decimals = digits(at: start + 1, end) {
      return (decimals.value / decimals.scale, decimals.end)
    }
    guard var whole = digits(at: start, end) else { return nil }
    var index = whole.end
    if let fraction = fraction(at: start, end) {
      return (fraction.numerator / fraction.denominator, fraction.end)
    }
    while index < end, chars[index] == ",", let group = digits(at: index + 1, end), group.count == 3 {
      whole = (whole.value * 1000 + group.value, whole.count + 3, whole.scale, group.end)
      index = group.end
    }
    if index < end, chars[index] == "." || chars[index] == ",", let decimals = digits(at: index + 1, end) {
      return (whole.value + decimals.value / decimals.scale, decimals.end)
    }
    let afterSpaces = skipSpaces(index, end)
    if afterSpaces > index, let fraction = fraction(at: afterSpaces, end), fraction.numerator < fraction.denominator {
      return (whole.value + fraction.numerator / fraction.denominator, fraction.end)
    }
    if index < end, chars[index] == "-", let fraction = fraction(at: index + 1, end),
      fraction.numerator < fraction.denominator
    {
      return (whole.value + fraction.numerator / fraction.denominator, fraction.end)
    }
    return (whole.value, index)
  }

  /// "a/b" with b > 0.
  private func fraction(at start: Int, _ end: Int) -> (numerator: Double, denominator: Double, end: Int)? {
    guard let numerator = digits(at: start, end), numerator.end < end, chars[numerator.end] == "/",
      let denominator = digits(at: numerator.end + 1, end), denominator.value > 0
    else { return nil }
    return (numerator.value, denominator.value, denominator.end)
  }

  /// A maximal run of ASCII digits: its value, length, 10^length and end.
  private func digits(at start: Int, _ end: Int) -> (value: Double, count: Int, scale: Double, end: Int)? {
    var index = start
    var value = 0.0
    var scale = 1.0
    while index < end, let digit = chars[index].asciiDigit {
      value = value * 10 + Double(digit)
      scale *= 10
      index += 1
    }
    return index > start ? (value, index - start, scale, index) : nil
  }

  // MARK: - Unit

  private struct UnitMatch {
    let entry: UnitTable.Entry
    let spelling: String
    let end: Int
    var qualifiers: [(position: Int, text: String)] = []
  }

  /// The size of each package between a count and its container: "1 14-ounce can",
  /// "2 x 400g cans", "1 400 g jar". Only taken when a count unit follows.
  private func matchPackageSize(at start: Int, _ end: Int) -> (position: Int, text: String, end: Int)? {
    var index = start
    if let (word, wordEnd) = word(at: index, end), word == "x" || word == "×" {
      index = skipSpaces(wordEnd, end)
    }
    let sizeStart = index
    guard let number = parseFiniteNumber(at: index, end) else { return nil }
    index = number.end
    if index < end, chars[index] == "-" { index += 1 } else { index = skipSpaces(index, end) }
    guard let measure = matchUnit(at: index, end), measure.entry.kind == .measure else { return nil }
    let after = skipSpaces(measure.end, end)
    guard let container = matchUnit(at: after, end), container.entry.kind == .count else { return nil }
    let text = SemanticKey.normalizedName(Char.string(chars[sizeStart..<measure.end]))
    return (sizeStart, text, after)
  }

  /// Qualifier words ("heaping", "large") followed by a unit; the qualifiers become notes.
  private func matchUnitWithQualifiers(at start: Int, _ end: Int) -> UnitMatch? {
    var index = start
    var qualifiers: [(position: Int, text: String)] = []
    while let (word, wordEnd) = word(at: index, end) {
      if var match = matchUnit(at: index, end) {
        match.qualifiers = qualifiers
        return match
      }
      let folded = SemanticKey.normalizedName(word)
      guard NoteWords.unitQualifiers.contains(folded) else { return nil }
      qualifiers.append((index, folded))
      index = skipSpaces(wordEnd, end)
    }
    return nil
  }

  /// A unit spelling (one or two words, dots ignored) that ends at a word boundary.
  private func matchUnit(at start: Int, _ end: Int) -> UnitMatch? {
    guard let first = unitToken(at: start, end) else { return nil }
    let second = skipSpaces(first.end, end)
    if let next = unitToken(at: second, end), second > first.end || first.raw.hasSuffix(".") {
      let spelling = Self.spellingKey(first.raw) + " " + Self.spellingKey(next.raw)
      if let entry = UnitTable.bySpelling[spelling] {
        return UnitMatch(entry: entry, spelling: spelling, end: next.end)
      }
    }
    let exact = first.raw.filter { $0 != "." }
    if let canonical = UnitTable.caseSensitiveSpellings[exact], let entry = UnitTable.byCanonical[canonical] {
      return UnitMatch(entry: entry, spelling: exact, end: first.end)
    }
    let spelling = Self.spellingKey(first.raw)
    guard let entry = UnitTable.bySpelling[spelling] else { return nil }
    return UnitMatch(entry: entry, spelling: spelling, end: first.end)
  }

  /// Letters and dots up to a word boundary (not a digit, hyphen or apostrophe: "T-bone"
  /// is no tablespoon).
  private func unitToken(at start: Int, _ end: Int) -> (raw: String, end: Int)? {
    var index = start
    while index < end, chars[index].isLetter || chars[index] == "." { index += 1 }
    guard index > start, chars[start].isLetter else { return nil }
    if index < end {
      let next = chars[index]
      if next.isLetter || next.isNumber || next == "-" || next == "'" || next == "\u{2019}" || next == "/" {
        return nil
      }
    }
    return (Char.string(chars[start..<index]), index)
  }

  /// The spelling a unit is looked up by: lowercase, without dots ("Tbsp." → "tbsp").
  /// ASCII (nearly every unit) by its bytes; `lowercased()` and a `Character` filter cost
  /// more than the lookup.
  private static func spellingKey(_ raw: String) -> String {
    guard raw.utf8.allSatisfy({ $0 < 0x80 }) else { return raw.lowercased().filter { $0 != "." } }
    return String(unsafeUninitializedCapacity: raw.utf8.count) { buffer in
      var count = 0
      for byte in raw.utf8 where byte != UInt8(ascii: ".") {
        buffer[count] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        count += 1
      }
      return count
    }
  }

  // MARK: - Name

  /// The name region after quantity and unit: leading note words and trailing note
  /// phrases move to notes, the rest is the name.
  private mutating func parseName(from start: Int, _ end: Int) -> String {
    var words: [(raw: String, folded: String, position: Int)] = []
    var index = skipSpaces(start, end)
    while let (word, wordEnd) = word(at: index, end) {
      words.append((word, SemanticKey.normalizedName(word), index))
      index = skipSpaces(wordEnd, end)
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
        if Array(folded[(last - phrase.count)..<last]) == phrase {
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
    if index + 1 < words.count, NoteWords.phrases.contains([words[index], words[index + 1]]) {
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

  // MARK: - Scanning helpers

  private func skipSpaces(_ start: Int, _ end: Int) -> Int {
    var index = start
    while index < end, chars[index].isWhitespace { index += 1 }
    return index
  }

  /// Skips a list bullet: "•", "·", "*", "◦", "‣", or "-" followed by a space.
  private func skipListMarker(_ start: Int, _ end: Int) -> Int {
    guard start < end else { return start }
    switch chars[start] {
    case "•", "·", "*", "◦", "‣":
      return skipSpaces(start + 1, end)
    case "-" where start + 1 < end && chars[start + 1].isWhitespace:
      return skipSpaces(start + 1, end)
    default:
      return start
    }
  }

  /// The run of non-space characters at `start`, or nil at a space or the end.
  private func word(at start: Int, _ end: Int) -> (String, Int)? {
    var index = start
    while index < end, !chars[index].isWhitespace { index += 1 }
    return index > start ? (Char.string(chars[start..<index]), index) : nil
  }

  private func hasName(after index: Int, _ end: Int) -> Bool {
    skipSpaces(index, end) < end
  }

  private func nextWordIsOf(_ index: Int, _ end: Int) -> Bool {
    guard let (word, _) = word(at: skipSpaces(index, end), end) else { return false }
    return word.lowercased() == "of"
  }

  private func isDigit(_ character: Char) -> Bool {
    character.asciiDigit != nil
  }

  private static func trimmingPunctuation(_ text: String) -> String {
    var result = Substring(text)
    while let first = result.first, isPunctuationEdge(first) { result = result.dropFirst() }
    while let last = result.last, isPunctuationEdge(last) { result = result.dropLast() }
    return result.startIndex == text.startIndex && result.endIndex == text.endIndex ? text : String(result)
  }

  private static func isPunctuationEdge(_ character: Character) -> Bool {
    switch character {
    case ".", ",", ";", ":", "-", "*", "•", "·", " ": true
    default: false
    }
  }
}

extension IngredientLineParser<Character> {
  /// A parser over the line's characters, prepared (see ``prepared(_:)``).
  init(_ line: String) {
    self.init(characters: Array(Self.prepared(line)))
  }

  /// Vulgar fractions spelled out with spaces around them ("1½" → "1 1/2 "), NFKC
  /// (full-width digits, "⁄"), fraction slashes as "/", every dash as "-". Case is kept:
  /// "T" and "t" are different units.
  static func prepared(_ line: String) -> String {
    // ASCII text has no vulgar fractions, NFKC leaves it as it is, and it has none of the
    // slashes and dashes replaced below: skip the passes (NFKC alone costs tens of
    // microseconds per line).
    if line.utf8.allSatisfy({ $0 < 0x80 }) { return line }
    var expanded = ""
    for character in line {
      if let fraction = UnicodeFractions.table[character] {
        expanded += " \(fraction.numerator)/\(fraction.denominator) "
      } else {
        expanded.append(character)
      }
    }
    var result = ""
    for character in expanded.precomposedStringWithCompatibilityMapping {
      switch character {
      case "\u{2044}", "\u{2215}": result.append("/")
      case "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}": result.append("-")
      default: result.append(character)
      }
    }
    return result
  }
}

extension IngredientLineParser<ASCIIByte> {
  /// A parser over the bytes of an ASCII line without carriage returns, or nil for any
  /// other line. Such a line needs no preparation: it has no vulgar fractions, NFKC leaves
  /// it as it is, and it has none of the slashes and dashes `prepared` replaces.
  init?(ascii line: String) {
    var bytes: [ASCIIByte] = []
    bytes.reserveCapacity(line.utf8.count)
    for byte in line.utf8 {
      guard byte < 0x80, byte != UInt8(ascii: "\r") else { return nil }
      bytes.append(ASCIIByte(byte))
    }
    self.init(characters: bytes)
  }
}

// MARK: - Characters

/// What the parser asks of a character: equality with literals, the classes it tests, and
/// the text of a run of them.
protocol LineCharacter: Equatable, ExpressibleByUnicodeScalarLiteral {
  var isWhitespace: Bool { get }
  var isLetter: Bool { get }
  var isNumber: Bool { get }
  /// 0…9 for an ASCII digit, else nil.
  var asciiDigit: UInt8? { get }
  static func string(_ characters: ArraySlice<Self>) -> String
}

extension Character: LineCharacter {
  var asciiDigit: UInt8? {
    guard let value = asciiValue, (48...57).contains(value) else { return nil }
    return value - 48
  }

  static func string(_ characters: ArraySlice<Character>) -> String { String(characters) }
}

/// One byte of an ASCII line. A literal outside ASCII ("•", "×") becomes a value no byte
/// of such a line has, so it never matches, as the `Character` would not.
struct ASCIIByte: LineCharacter {
  let value: UInt8

  init(_ value: UInt8) { self.value = value }

  init(unicodeScalarLiteral scalar: Unicode.Scalar) {
    value = scalar.isASCII ? UInt8(scalar.value) : 0xFF
  }

  private static let whitespaceBit: UInt8 = 1, letterBit: UInt8 = 2, numberBit: UInt8 = 4

  /// The classes of each ASCII byte, read from the `Character` of that byte so that the
  /// two parsers cannot disagree.
  private static let classes: [UInt8] = (0..<128).map { byte in
    let character = Character(Unicode.Scalar(UInt8(byte)))
    return (character.isWhitespace ? whitespaceBit : 0) | (character.isLetter ? letterBit : 0)
      | (character.isNumber ? numberBit : 0)
  }

  private var classBits: UInt8 { value < 0x80 ? Self.classes[Int(value)] : 0 }
  var isWhitespace: Bool { classBits & Self.whitespaceBit != 0 }
  var isLetter: Bool { classBits & Self.letterBit != 0 }
  var isNumber: Bool { classBits & Self.numberBit != 0 }

  var asciiDigit: UInt8? {
    value >= UInt8(ascii: "0") && value <= UInt8(ascii: "9") ? value - UInt8(ascii: "0") : nil
  }

  static func string(_ characters: ArraySlice<ASCIIByte>) -> String {
    String(unsafeUninitializedCapacity: characters.count) { buffer in
      for (offset, character) in characters.enumerated() { buffer[offset] = character.value }
      return characters.count
    }
  }
}
