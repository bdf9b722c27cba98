/// Spelled-out quantities an ingredient line reads ("two eggs", "twenty-five almonds",
/// "one and a half cups", "two thirds cup", "a couple of sprigs").
///
/// The grammar that combines them is `LineGrammar+Quantity.swift`; these are its words.
package enum NumberWords {
  /// one … nineteen, and the tens.
  package static let units: [String: Double] = [
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
  ]
  package static let tens: [String: Double] = [
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
  ]

  /// The value of one word: "seven", "forty", "twenty-five" (a hyphenated ten and unit).
  package static func value(_ word: String) -> Double? {
    if let value = units[word] ?? tens[word] { return value }
    guard let hyphen = word.firstIndex(of: "-"), let ten = tens[String(word[..<hyphen])],
      let unit = units[String(word[word.index(after: hyphen)...])], unit < 10
    else { return nil }
    return ten + unit
  }

  /// Fraction words after a count ("two thirds", "three quarters", "one half") and after
  /// "a"/"an" ("a third", "a quarter", "a half"): the denominator.
  package static let denominators: [String: Double] = [
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "eighth": 8, "eighths": 8,
  ]

  /// "a", "an": 1 when a unit follows ("a pinch of salt", "a dozen eggs"); "a half", "a
  /// third" are fractions.
  package static let articles: Set<String> = ["a", "an"]

  /// Words for a small number that is named, not counted: "a couple (of)" is 2.
  package static let couple: Set<String> = ["couple"]

  /// Vague amounts: no quantity is read from them, they go to notes ("a few sprigs of
  /// thyme" → unit sprig, name thyme, notes "a few").
  package static let vague: Set<String> = ["few", "several", "some"]
}
