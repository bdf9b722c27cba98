import Normalization
import Testing

@Suite("titleKey")
struct TitleKeyTests {
  static let cases: [(input: String, expected: String)] = [
    ("Mom's Lasagna", "moms lasagna"),
    ("Moms Lasagna", "moms lasagna"),
    ("Mom’s Lasagna", "moms lasagna"),
    ("MOM'S LASAGNA!!!", "moms lasagna"),
    ("  Mom's   Lasagna  ", "moms lasagna"),
    ("Mac & Cheese", "mac and cheese"),
    ("Mac and Cheese", "mac and cheese"),
    ("Mac-and-Cheese", "mac and cheese"),
    ("Stir-Fry", "stir fry"),
    ("Salt, Fat, Acid, Heat", "salt fat acid heat"),
    ("P.F. Chang's Lettuce Wraps", "pf changs lettuce wraps"),
    ("Dr. Oetker's Pudding", "dr oetkers pudding"),
    ("\"The Best\" Brownies", "the best brownies"),
    ("Chicken (Slow Cooker)", "chicken slow cooker"),
    ("Soup: Tomato / Basil", "soup tomato basil"),
    ("5-Minute Mug Cake", "5 minute mug cake"),
    ("Crème Brûlée", "creme brulee"),
    ("Pizza 🍕 Night", "pizza night"),
    ("Salt|Pepper", "salt pepper"),
    ("", ""),
    ("!!!", ""),
    ("Ｐａｄ Ｔｈａｉ", "pad thai"),
  ]

  @Test(arguments: cases)
  func removesPunctuationFromTheNormalizedTitle(input: String, expected: String) {
    #expect(SemanticKey.titleKey(input) == expected)
  }
}
