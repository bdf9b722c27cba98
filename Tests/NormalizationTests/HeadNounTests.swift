import Normalization
import Testing

@Suite("Inflection.singularizeHeadNoun")
struct HeadNounTests {
  static let cases: [(phrase: String, expected: String)] = [
    // Last word is the head
    ("roma tomatoes", "roma tomato"),
    ("green beans", "green bean"),
    ("cherry tomatoes", "cherry tomato"),
    ("brussels sprouts", "brussels sprout"),
    ("bay leaves", "bay leaf"),
    ("chicken thighs", "chicken thigh"),
    ("red bell peppers", "red bell pepper"),
    ("sweet potatoes", "sweet potato"),
    ("baby carrots", "baby carrot"),
    ("collard greens", "collard greens"),
    ("mixed berries", "mixed berry"),
    ("potatoes", "potato"),
    ("rice", "rice"),
    ("", ""),
    ("   ", ""),
    (" roma   tomatoes ", "roma tomato"),
    // X of Y, X with Y, X in Y
    ("cloves of garlic", "clove of garlic"),
    ("hearts of palm", "heart of palm"),
    ("heads of lettuce", "head of lettuce"),
    ("cream of tartar", "cream of tartar"),
    ("tomatoes in juice", "tomato in juice"),
    ("pigs in blankets", "pig in blankets"),
    ("bagels with seeds", "bagel with seeds"),
    // Measure-word prefixes keep the food noun
    ("cloves garlic", "clove garlic"),
    ("sprigs thyme", "sprig thyme"),
    ("sprigs fresh thyme", "sprig fresh thyme"),
    ("stalks celery", "stalk celery"),
    ("clove garlic", "clove garlic"),
    ("bunches scallions", "bunch scallions"),
    // Single measure word alone is an ordinary word
    ("cloves", "clove"),
  ]

  @Test(arguments: cases)
  func singularizesOnlyTheHeadNoun(phrase: String, expected: String) {
    #expect(Inflection.singularizeHeadNoun(phrase) == expected)
  }

  @Test(arguments: cases)
  func singularizingTwiceChangesNothingMore(phrase: String, expected: String) {
    #expect(Inflection.singularizeHeadNoun(Inflection.singularizeHeadNoun(phrase)) == expected)
  }
}
