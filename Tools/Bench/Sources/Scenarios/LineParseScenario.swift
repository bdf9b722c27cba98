import Foundation
import Normalization

/// The cost of `IngredientLine.parse` per line, on a fixed corpus of lines in the shapes
/// real recipes write (most ASCII, some with unicode fractions and dashes).
///
/// No baseline: the target is per line, and the corpus stays fixed so that `--compare`
/// shows what a change to the parser costs (Docs/PERFORMANCE.md, "Scenarios").
enum LineParseScenario {
  /// The corpus: every line is parsed once per pass. Kept fixed so figures compare
  /// across commits.
  static let lines: [String] = [
    "2 cups all-purpose flour",
    "1 tsp salt",
    "3 large eggs, beaten",
    "1/2 cup unsalted butter, melted",
    "2 cloves garlic, minced",
    "1 (14 oz) can diced tomatoes, drained",
    "salt and freshly ground black pepper to taste",
    "1 1/2 cups whole milk",
    "200g dark chocolate, chopped",
    "2-3 tbsp olive oil",
    "1 large onion, finely chopped",
    "1 lb boneless, skinless chicken thighs",
    "2 x 400 g tins chopped tomatoes",
    "1 cup / 240 ml chicken stock",
    "3 tablespoons (45 g) butter",
    "1 cup plus 2 tablespoons flour",
    "juice of 1 lemon",
    "a pinch of salt",
    "2 (14.5-ounce) cans diced tomatoes",
    "1 bunch fresh cilantro, leaves only",
    "Butter: 120 g",
    "2 tbsp butter or 1 tbsp oil",
    "between 1 and 4 cups water",
    "one and a half cups sugar",
    "4 sprigs thyme",
    "1 tbsp chopped fresh parsley, for garnish",
    "8 oz cream cheese, softened",
    "1 kg potatoes, peeled and cubed",
    "parsley, for garnish",
    "2 ½ cups diced tomatoes (about 3)",
    "½–1 tsp chili flakes",
    "¼ + ⅛ tsp salt",
    "1½ cups stock",
    "Crème fraîche, to serve",
  ]

  static let scenario = Scenario(
    id: "lineparse", title: "ingredient line parse, per line (a corpus of real-recipe shapes)",
    target: "≤ 10 µs per line", parameters: ["lineparse.passes"]
  ) { context in
    let passes = max(context.sizes["lineparse.passes"], 10)
    let ascii = lines.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
    let unicode = lines.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
    var sink = 0
    func pass(_ corpus: [String]) -> Double {
      time {
        for line in corpus { sink &+= IngredientLine.parse(line).name.utf8.count }
      } / Double(corpus.count)
    }
    for _ in 0..<20 { _ = pass(lines) }  // warm up the tables
    var all: [Double] = [], asciiOnly: [Double] = [], unicodeOnly: [Double] = []
    for _ in 0..<(passes * max(context.rounds, 1)) {
      all.append(pass(lines))
      asciiOnly.append(pass(ascii))
      unicodeOnly.append(pass(unicode))
    }
    var result = ScenarioResult(context)
    result.compare(all, nil)
    result.figures["ASCII line"] = Stats(asciiOnly).median
    result.figures["non-ASCII line"] = Stats(unicodeOnly).median
    result.figures["name bytes count"] = Double(sink % 1_000_000)  // keeps the parses from being optimized away
    result.judge((result.forager?.median ?? .infinity) <= 10e-6)
    result.note = "IngredientLine.parse over \(lines.count) lines (\(ascii.count) ASCII), median of passes, per line"
    return result
  }
}
