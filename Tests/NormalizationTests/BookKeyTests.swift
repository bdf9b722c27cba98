import Normalization
import Testing

@Suite("bookKey")
struct BookKeyTests {
  static let cases: [(title: String, author: String?, expected: String)] = [
    ("Salt, Fat, Acid, Heat", "Samin Nosrat", "salt fat acid heat|samin nosrat"),
    ("Salt Fat Acid Heat", "  SAMIN   NOSRAT ", "salt fat acid heat|samin nosrat"),
    ("The Food Lab", "J. Kenji López-Alt", "the food lab|j. kenji lopez-alt"),
    ("Jerusalem", nil, "jerusalem|"),
    ("Jerusalem", "", "jerusalem|"),
    ("", nil, "|"),
    ("Plenty", "Yotam Ottolenghi", "plenty|yotam ottolenghi"),
    ("A|B", "C", "a b|c"),
  ]

  @Test(arguments: cases)
  func joinsTitleKeyAndNormalizedAuthor(title: String, author: String?, expected: String) {
    #expect(SemanticKey.bookKey(title: title, author: author) == expected)
  }
}
