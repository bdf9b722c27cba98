/// Latin letters that are not "a letter plus a diacritic" in Unicode, so NFKD cannot strip
/// them, but that people type interchangeably with plain letters (bœuf / boeuf, smørrebrød / smorrebrod).
///
/// Applied after case folding, so only lowercase forms are needed.
package enum LetterFolds {
  package static let table: [Unicode.Scalar: String] = [
    "\u{0131}": "i",  // ı dotless i
    "\u{0153}": "oe",  // œ
    "\u{00E6}": "ae",  // æ
    "\u{00F8}": "o",  // ø
    "\u{0142}": "l",  // ł
    "\u{0111}": "d",  // đ
  ]
}
