import Foundation
import Scripting
import Testing

@testable import CommandLanguage

@Suite struct ParserTests {
  let parser = ScriptParser<Session>(registry: .standard)

  func firstError(_ text: String) -> ScriptError? { parser.parse(text).errors.first }

  @Test func anUnknownCommandIsAUsageErrorWithASuggestion() throws {
    let error = try #require(firstError("recipee list"))
    #expect(error.kind == .usage)
    #expect(error.description.contains("unknown command 'recipee'"))
    #expect(error.description.contains("did you mean 'recipe'"))
  }

  @Test func anUnknownSubcommandListsTheGroupsVerbs() throws {
    let error = try #require(firstError("recipe shw Soup"))
    #expect(error.description.hasPrefix("recipe: unknown subcommand 'shw'"))
    #expect(error.description.contains("did you mean 'recipe show'"))
    #expect(error.description.contains("add, show, list"))
  }

  @Test func aGroupWordAloneAsksForASubcommand() throws {
    #expect(
      try #require(firstError("category")).description
        == "category: missing subcommand; one of add, list, show, move, order, rename, delete")
  }

  @Test func aMissingArgumentIsNamedWithTheUsage() throws {
    let error = try #require(firstError("category add"))
    #expect(error.kind == .usage)
    #expect(error.command == "category add")
    #expect(error.argument == "name")
    #expect(error.description.contains("usage: category add NAME"))
  }

  @Test func anUnknownOptionNamesTheKnownOnes() throws {
    let error = try #require(firstError("recipe list --cuisin Asian"))
    #expect(error.argument == "--cuisin")
    #expect(error.description.contains("known: --cuisine"))
  }

  @Test func anOptionWithoutItsValueIsAnError() throws {
    #expect(try #require(firstError("recipe list --cuisine")).description == "recipe list: --cuisine: needs a value (CUISINE)")
  }

  @Test func aFlagGivenAValueIsAnError() throws {
    #expect(try #require(firstError("recipe add Soup --anyway=yes")).description.contains("is a flag and takes no value"))
  }

  @Test func aSingleOptionGivenTwiceIsAnError() throws {
    #expect(try #require(firstError("recipe list --cuisine A --cuisine B")).description.contains("given more than once"))
  }

  @Test func optionsTakeValuesWithASpaceOrAnEqualsSign() throws {
    let parsed = parser.parse("recipe add Soup --cuisine=Thai --page 12 --ingredient \"1 onion\" --ingredient=\"2 leeks\"")
    let invocation = try #require(parsed.statements.first)
    #expect(invocation.option("cuisine") == "Thai")
    #expect(invocation.integer("page") == 12)
    #expect(invocation.values("ingredient") == ["1 onion", "2 leeks"])
  }

  @Test func aDoubleDashEndsOptionsSoANameMayStartWithDashes() throws {
    let invocation = try #require(parser.parse("category add -- --weird").statements.first)
    #expect(invocation.argument("name") == "--weird")
  }

  @Test func aBadDateIsCaughtWhileParsing() throws {
    let error = try #require(firstError("meal plan 2024-13-01 dinner Soup"))
    #expect(error.kind == .usage)
    #expect(error.description == "meal plan: date: '2024-13-01' is not a date; use YYYY-MM-DD, e.g. 2024-12-13")
  }

  @Test func anUnknownMealTypeIsCaughtWhileParsing() throws {
    #expect(
      try #require(firstError("meal plan 2024-12-13 brunch Soup")).description
        == "meal plan: meal: 'brunch' is not a meal type; use one of breakfast, lunch, dinner, snack")
  }

  @Test func badNumbersWeeksKindsAndChoicesAreCaughtWhileParsing() throws {
    #expect(try #require(firstError("recipe add Soup --page twelve")).description == "recipe add: --page: 'twelve' is not a whole number")
    #expect(try #require(firstError("meal week 2024-W60")).description.contains("is not an ISO week"))
    #expect(try #require(firstError("expect count spoons 3")).description.contains("'spoons' is not a kind"))
    #expect(try #require(firstError("output yaml")).description == "output: mode: 'yaml' is not one of table, json")
    #expect(try #require(firstError("recipe set Soup --favorite maybe")).description.contains("'maybe' is not yes or no"))
  }

  @Test func meaningfulValuesAreCanonicalized() throws {
    let invocation = try #require(parser.parse("meal plan 2024-12-13 DINNER Egg Fried Rice").statements.first)
    #expect(invocation.argument("meal") == "dinner")
    #expect(invocation.argument("recipe") == "Egg Fried Rice")
  }

  @Test func theLastArgumentMayBeSeveralWordsAndKeywordsSplitNames() throws {
    let invocation = try #require(parser.parse("category rename Meat & Seafood to Butcher Counter").statements.first)
    #expect(invocation.argument("old") == "Meat & Seafood")
    #expect(invocation.argument("new") == "Butcher Counter")
  }

  @Test func aQuotedKeywordIsPartOfAName() throws {
    let invocation = try #require(parser.parse(#"book rename "Back" "to" Basics to Basics"#).statements.first)
    #expect(invocation.argument("old") == "Back to Basics")
    #expect(invocation.argument("new") == "Basics")
  }

  @Test func aMissingKeywordIsAUsageError() throws {
    #expect(try #require(firstError("category rename Produce")).description.contains("missing 'to'"))
  }

  @Test func extraArgumentsAreAnError() throws {
    #expect(try #require(firstError("counts recipes")).description.contains("unexpected argument recipes"))
    #expect(try #require(firstError("meal show 2024-12-13 dinner extra")).description.contains("unexpected argument extra"))
  }

  @Test func aBlockGivesIngredientLinesAndSteps() throws {
    let parsed = parser.parse(
      """
      recipe add "Mom's Lasagna" --cuisine Italian:
        12 lasagna noodles
        # a comment inside the block
        2 cups ricotta (part-skim)

      steps:
        Layer, then bake.
      end
      counts
      """)
    #expect(parsed.errors.isEmpty)
    let invocation = try #require(parsed.statements.first)
    #expect(invocation.argument("name") == "Mom's Lasagna")
    #expect(invocation.option("cuisine") == "Italian")
    #expect(invocation.values("ingredient") == ["12 lasagna noodles", "2 cups ricotta (part-skim)"])
    #expect(invocation.values("step") == ["Layer, then bake."])
    #expect(parsed.statements.map(\.command) == ["recipe add", "counts"])
    #expect(parsed.statements.map(\.line) == [1, 9])
  }

  @Test func anUnclosedBlockIsASyntaxErrorOnItsFirstLine() throws {
    let error = try #require(firstError("counts\nrecipe add Soup:\n  1 onion\n"))
    #expect(error.kind == .syntax)
    #expect(error.line == 2)
    #expect(error.description.contains("never closed with 'end'"))
  }

  @Test func continuationLinesJoinIntoOneCommand() throws {
    let parsed = parser.parse("recipe add Soup \\\n  --cuisine Thai \\\n  --page 3\ncounts")
    #expect(parsed.errors.isEmpty)
    #expect(parsed.statements.first?.option("cuisine") == "Thai")
    #expect(parsed.statements.map(\.line) == [1, 4])
  }

  @Test func aContinuationWithNothingToContinueIsASyntaxError() throws {
    for script in ["counts\ncategory add Dairy \\", "counts\ncategory add Dairy \\\n", "category add Dairy \\\n\ncounts"] {
      let parsed = parser.parse(script)
      #expect(parsed.errors.map(\.kind) == [.syntax], "\(script.debugDescription)")
      #expect(parsed.statements.allSatisfy { $0.command != "category add" }, "\(script.debugDescription)")
    }
    #expect(firstError("counts\ncategory add Dairy \\")?.line == 2)
  }

  @Test func aControlCharacterInALineIsASyntaxErrorNamingIt() throws {
    let error = try #require(firstError("counts\n\u{0}\ncounts"))
    #expect(error.kind == .syntax)
    #expect(error.line == 2)
    #expect(error.description.contains("a control character (U+0000) at column 1"))
    #expect(firstError("category add Dai\u{1B}ry")?.description.contains("U+001B) at column 17") == true)
    // Tabs and a CRLF line end are fine.
    let crlf = parser.parse("category\tadd Dairy\r\ncounts\r\n")
    #expect(crlf.errors.isEmpty)
    #expect(crlf.statements.map(\.command) == ["category add", "counts"], "CRLF lines are two commands")
  }

  @Test func everyErrorOfAScriptIsReportedWithItsLine() throws {
    let parsed = parser.parse(
      """
      category add Produce
      category add "Dairy
      meal plan 2024-02-30 dinner Soup
      # fine
      frobnicate
      recipe list --cuisine Thai
      """)
    #expect(parsed.errors.map(\.line) == [2, 3, 5])
    #expect(parsed.errors.map(\.kind) == [.syntax, .usage, .usage])
    #expect(parsed.statements.count == 2)
  }

  @Test func helpOnAnyCommandSkipsArgumentChecks() throws {
    let invocation = try #require(parser.parse("meal plan --help").statements.first)
    #expect(invocation.wantsHelp)
  }

  @Test func needsMoreLinesWhileABlockOrContinuationIsOpen() {
    #expect(parser.needsMoreLines("recipe add Soup:"))
    #expect(parser.needsMoreLines("recipe add Soup:\n  1 onion"))
    #expect(!parser.needsMoreLines("recipe add Soup:\n  1 onion\nend"))
    #expect(parser.needsMoreLines("category add \\"))
    #expect(!parser.needsMoreLines("category add Dairy:"))
  }

  @Test func everyExampleInTheHelpParses() {
    for spec in CommandRegistry<Session>.standard.commands {
      #expect(!spec.examples.isEmpty, "\(spec.name) needs an example")
      for example in spec.examples {
        let parsed = parser.parse(example.replacingOccurrences(of: "6f1c…", with: "a").replacingOccurrences(of: "0a2b…", with: "b"))
        #expect(parsed.errors.isEmpty, "\(spec.name) example '\(example)': \(parsed.errors)")
        #expect(parsed.statements.first?.command == spec.name, "\(example)")
      }
    }
  }
}
