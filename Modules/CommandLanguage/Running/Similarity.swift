/// How close a typed word is to a known one, for "did you mean …?" on commands,
/// subcommands, options and record names.
///
/// The distance is the optimal string alignment distance: an insertion, a deletion, a
/// substitution or a swap of two neighbouring characters each count one edit, so "Diary"
/// is one edit from "Dairy" and "onoin" one from "onion". A candidate is close when it is
/// at most a third of the longer word's length away (at least one edit) and fewer edits
/// away than the shorter word is long: "category xyz" is three edits from "add" and gets
/// no suggestion.
///
/// ```swift
/// Similarity.closest(to: "Diary", among: ["Produce", "Dairy"])   // "Dairy"
/// Similarity.closest(to: "xyz", among: ["add", "list"])          // nil
/// ```
public enum Similarity {
  /// The candidate closest to `typed` (compared without case), the first in order among
  /// equally close ones; nil when none is close or one equals it.
  public static func closest(to typed: String, among candidates: [String]) -> String? {
    let word = Array(typed.lowercased())
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let other = Array(candidate.lowercased())
      let edits = distance(word, other)
      guard edits <= limit(word.count, other.count) else { continue }
      if edits < best?.distance ?? Int.max { best = (candidate, edits) }
    }
    guard let best, best.distance > 0 else { return nil }
    return best.candidate
  }

  /// The most edits two words of these lengths may be apart and still be close.
  static func limit(_ a: Int, _ b: Int) -> Int {
    min(max(1, max(a, b) / 3), min(a, b) - 1)
  }

  /// The optimal string alignment distance between two strings.
  static func distance(_ a: String, _ b: String) -> Int { distance(Array(a), Array(b)) }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Three rows: two back (for a swap), one back, and the current one.
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], twoBack[j - 2] + 1)
        }
      }
      (twoBack, previous, current) = (previous, current, twoBack)
    }
    return previous[b.count]
  }
}
