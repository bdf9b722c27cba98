/// Spelled-out quantities accepted at the start of an ingredient line ("two eggs").
///
/// "a" and "an" count as 1 only when a unit follows ("a pinch of salt"); the others
/// count wherever they stand first.
package enum NumberWords {
  package static let table: [String: Double] = [
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
  ]
  package static let articles: Set<String> = ["a", "an"]
}
