import Foundation
import Normalization
import Testing

/// Pins every public result of `IngredientLine.parse` and of the name functions on a
/// large recorded corpus (`Golden/ingredient-lines.tsv`), so a rewrite of the parser or of
/// `Inflection` that changes one result fails here.
///
/// The corpus holds the bench corpus, the lines and strings of the Normalization and
/// RecipeExchange tests, the rows of `RecipeLineTable`, seeded lines combining amounts,
/// units, number words, fractions, unicode, notes and dashes, seeded strings of the
/// pieces `TotalityTests` uses, and every word of those lines for the singular.
///
/// One record a line, fields separated by a tab; `\\`, `\t`, `\n`, `\r` escape those
/// characters and `\N` stands for nil:
///
///     P  line  quantity  upper bound  unit  name  canonical name  notes  package size  equivalent  alternative
///     S  text  singular  singularizeHeadNoun  canonicalIngredientName  normalizedName
///
/// To record a deliberate change, run the suite with `FORAGER_GOLDEN_WRITE=1`: it rewrites
/// the results from the file's inputs (and still fails, so a rewrite is never silent).
@Suite("Golden parses")
struct GoldenParseTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden/ingredient-lines.tsv")

  @Test func everyRecordedResultIsUnchanged() throws {
    let text = try String(contentsOf: Self.file, encoding: .utf8)
    var written: [String] = []
    var mismatches: [String] = []
    var lines = 0
    var words = 0
    for record in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = record.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 2 else {
        Issue.record("malformed record: \(record)")
        continue
      }
      let input = Self.unescape(fields[1])
      let actual: String
      switch fields[0] {
      case "P":
        actual = Self.record(line: input)
        lines += 1
      case "S":
        actual = Self.record(word: input)
        words += 1
      default:
        Issue.record("unknown record kind: \(record)")
        continue
      }
      written.append(actual)
      if actual != String(record) { mismatches.append("expected \(record)\n     got \(actual)") }
    }
    #expect(lines > 5000 && words > 3000, "the corpus is smaller than recorded: \(lines) lines, \(words) words")
    if ProcessInfo.processInfo.environment["FORAGER_GOLDEN_WRITE"] == "1" {
      try (written.joined(separator: "\n") + "\n").write(to: Self.file, atomically: true, encoding: .utf8)
      Issue.record("rewrote \(Self.file.path) (\(mismatches.count) results changed)")
      return
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) results changed; first:\n\(mismatches.prefix(20).joined(separator: "\n"))")
  }

  /// A result that differs in one field gives a different record.
  @Test func aChangedResultIsCaught() {
    let line = "2 ½ cups diced tomatoes (about 3)"
    let recorded = Self.record(line: line)
    #expect(recorded == "P\t2 ½ cups diced tomatoes (about 3)\t2.5\t\\N\tcup\ttomatoes\ttomato\tdiced; about 3\t\\N\t\\N\t\\N")
    #expect(recorded != Self.record(line: "2 ½ cups diced tomato (about 3)"))
    #expect(Self.unescape(Self.escape("a\tb\\N\nc\r")) == "a\tb\\N\nc\r")
  }

  static func record(line: String) -> String {
    let parsed = IngredientLine.parse(line)
    return [
      "P", escape(line), number(parsed.quantity), number(parsed.quantityUpperBound), field(parsed.unit), escape(parsed.name),
      escape(parsed.canonicalName), field(parsed.notes), amount(parsed.packageSize), amount(parsed.equivalent),
      field(parsed.alternative),
    ].joined(separator: "\t")
  }

  static func record(word: String) -> String {
    [
      "S", escape(word), escape(Inflection.singular(word)), escape(Inflection.singularizeHeadNoun(word)),
      escape(SemanticKey.canonicalIngredientName(word)), escape(SemanticKey.normalizedName(word)),
    ].joined(separator: "\t")
  }

  private static func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "\\N" }
  private static func field(_ value: String?) -> String { value.map(escape) ?? "\\N" }
  private static func amount(_ value: IngredientLine.Amount?) -> String {
    guard let value else { return "\\N" }
    return "\(value.quantity)..\(number(value.upperBound)) \(field(value.unit))"
  }

  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\r\n": result += "\\r\\n"
      default: result.append(character)
      }
    }
    return result
  }

  static func unescape(_ text: String) -> String {
    var result = ""
    var escaped = false
    for character in text {
      if escaped {
        switch character {
        case "t": result += "\t"
        case "n": result += "\n"
        case "r": result += "\r"
        default: result.append(character)
        }
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}
