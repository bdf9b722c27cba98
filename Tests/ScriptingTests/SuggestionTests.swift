import Foundation
import Model
import Scripting
import Testing

@testable import CommandLanguage

/// "Did you mean …?" for commands, subcommands, options and record names counts a swap of
/// two neighbouring characters as one edit and suggests only what is close for the length
/// of the word typed.
@Suite struct SuggestionTests {
  let parser = ScriptParser<Session>(registry: .standard)

  func usageError(_ line: String) -> String { parser.parse(line).errors.first?.description ?? "" }

  /// Every one-edit typo of `word` that keeps it at least four characters: each swap of
  /// neighbours, each deletion, and each doubled or replaced character.
  static func typos(of word: String) -> [String] {
    let characters = Array(word)
    var typos: Set<String> = []
    for index in characters.indices {
      var deleted = characters
      deleted.remove(at: index)
      typos.insert(String(deleted))
      var doubled = characters
      doubled.insert(characters[index], at: index)
      typos.insert(String(doubled))
      var replaced = characters
      replaced[index] = characters[index] == "q" ? "z" : "q"
      typos.insert(String(replaced))
      if index + 1 < characters.count, characters[index] != characters[index + 1] {
        var swapped = characters
        swapped.swapAt(index, index + 1)
        typos.insert(String(swapped))
      }
    }
    return typos.filter { $0.count >= 4 && $0.lowercased() != word.lowercased() }.sorted()
  }

  @Test func theReportedExamples() throws {
    let harness = try Harness()
    try harness.run("category add Dairy\ningredient add onion\ncategory add Produce")
    try harness.expectFailure("category show Diary", .failed, mentions: ["no category named 'Diary'", "did you mean 'Dairy'?"])
    try harness.expectFailure("ingredient show onoin", .failed, mentions: ["did you mean 'onion'?"])
    #expect(usageError("category xyz").hasPrefix("category: unknown subcommand 'xyz'; one of add"), "\(usageError("category xyz"))")
    #expect(!usageError("category xyz").contains("did you mean"))
    #expect(usageError("cateogry list").contains("did you mean 'category'?"))
    #expect(usageError("recipe sohw Soup").contains("did you mean 'recipe show'?"))
    #expect(usageError("list add-plan Groceries --weak 2024-W50").contains("did you mean '--week'?"))
  }

  @Test func everyOneEditTypoOfACommandWordIsSuggested() {
    let registry = CommandRegistry<Session>.standard
    var checked = 0
    for word in registry.leadingWords where word.count >= 4 {
      for typo in Self.typos(of: word) where !registry.leadingWords.contains(typo) {
        let error = usageError("\(typo) x")
        // Another command may be as close; the suggestion is then one of the close ones.
        #expect(error.contains("did you mean '"), "\(typo) for \(word): \(error)")
        checked += 1
      }
    }
    for spec in registry.commands where spec.words.count == 2 && spec.words[1].count >= 4 {
      let verbs = registry.subcommands(of: spec.words[0]).map { $0.words[1] }
      for typo in Self.typos(of: spec.words[1]) where !verbs.contains(typo) {
        let error = usageError("\(spec.words[0]) \(typo)")
        #expect(error.contains("did you mean '\(spec.words[0]) "), "\(spec.words[0]) \(typo): \(error)")
        checked += 1
      }
    }
    #expect(checked > 500)
  }

  @Test func everyOneEditTypoOfARecordNameIsSuggested() throws {
    let harness = try Harness()
    let names = ["Dairy", "Produce", "Bakery", "Frozen Foods", "Meat & Seafood"]
    for name in names { try harness.run("category add \(Lexer.quote(name))") }
    var checked = 0
    for name in names {
      for typo in Self.typos(of: name) where !names.contains(typo) {
        // A typo with the name's key ("Frozen Food", "Meat  Seafood") finds the category.
        guard let error = harness.error("category show \(Lexer.quote(typo))")?.description else { continue }
        #expect(error.hasSuffix("did you mean '\(name)'?"), "\(typo): \(error)")
        checked += 1
      }
    }
    #expect(checked > 100)
  }

  @Test func unrelatedWordsGetNoSuggestion() throws {
    let harness = try Harness()
    try harness.run("category add Dairy\ncategory add Produce\ncategory add Bakery")
    for word in ["xyz", "abc", "Fish", "Spices", "Dry", "Prod", "Candy"] {
      let error = harness.error("category show \(word)")?.description ?? ""
      #expect(error.hasPrefix("category show: no category named") && !error.contains("did you mean"), "\(word): \(error)")
    }
    for line in ["category xyz", "recipe zzz", "list qq", "sync foo", "xyzzy", "ab"] {
      #expect(!usageError(line).contains("did you mean"), "\(line): \(usageError(line))")
    }
  }
}
