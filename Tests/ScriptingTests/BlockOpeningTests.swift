import Foundation
import Model
import Repositories
import Scripting
import Testing

@testable import CommandLanguage

/// A bare `:` at the end of a command line opens its block whatever the last word is
/// written like — bare, quoted, single-quoted, escaped — in the batch runner's parser and
/// at the REPL alike; a colon inside quotes or escaped is part of the word.
@Suite struct BlockOpeningTests {
  let parser = ScriptParser<Session>(registry: .standard)

  /// A name as typed, and the name it means.
  static let names: [(typed: String, name: String)] = [
    (#""Mom's Lasagna""#, "Mom's Lasagna"), ("'Egg Fried Rice'", "Egg Fried Rice"), (#"Egg\ Rice"#, "Egg Rice"),
    ("Soup", "Soup"), (#"Green" Curry""#, "Green Curry"), (#""Pad" Thai"#, "Pad Thai"), ("Tomato Pasta", "Tomato Pasta"),
    (#""Café \"Au\" Lait""#, #"Café "Au" Lait"#),
  ]
  /// What may come between the name and the colon.
  static let endings = ["", " --cuisine Italian", #" --cuisine "Italian""#, " --tag 'family'"]
  static let colons = [":", " :"]

  static func script(_ first: String) -> String {
    "\(first)\n  2 eggs\n  1 cup rice\nsteps:\n  Mix.\nend"
  }

  static var cases: [(line: String, name: String)] {
    names.flatMap { name in
      endings.flatMap { ending in colons.map { ("recipe add \(name.typed)\(ending)\($0)", name.name) } }
    }
  }

  @Test func everyWayOfWritingTheLastWordOpensTheBlock() throws {
    for (line, name) in Self.cases {
      let parsed = parser.parse(Self.script(line))
      #expect(parsed.errors.isEmpty, "\(line): \(parsed.errors.map(\.description))")
      let statement = try #require(parsed.statements.first, "\(line)")
      #expect(parsed.statements.count == 1, "\(line)")
      #expect(statement.argument("name") == name, "\(line)")
      #expect(statement.values("ingredient") == ["2 eggs", "1 cup rice"], "\(line)")
      #expect(statement.values("step") == ["Mix."], "\(line)")
      #expect(parser.needsMoreLines(line), "\(line)")
    }
  }

  @Test func theREPLOpensTheBlockAfterAQuotedName() throws {
    for (line, name) in Self.cases.filter({ $0.line.hasSuffix("\":") || $0.line.hasSuffix("':") }) {
      let session = try Session(location: "memory", now: { Harness.fixedNow })
      let repl = ReplEngine(interpreter: Interpreter(context: session))
      let lines = Self.script(line).split(separator: "\n").map(String.init)
      for typed in lines.dropLast() {
        let reply = repl.feed(typed)
        #expect(reply.error == nil && !reply.ran && repl.isContinuing, "\(line) / \(typed): \(String(describing: reply.error))")
      }
      let reply = repl.feed("end")
      #expect(reply.error == nil && reply.ran, "\(line): \(String(describing: reply.error))")
      let recipes = try session.library.recipes.all()
      #expect(recipes.map(\.displayName) == [name], "\(line)")
      #expect(try session.library.recipes.details(name).lines.count == 2, "\(line)")
    }
  }

  @Test func aColonInsideQuotesOrEscapedIsPartOfTheName() throws {
    for (line, name) in [(#"recipe add "Ratio 2:""#, "Ratio 2:"), (#"recipe add Ratio\:"#, "Ratio:"), ("recipe add 'Note:'", "Note:")] {
      #expect(!parser.needsMoreLines(line), "\(line)")
      let parsed = parser.parse(line)
      #expect(parsed.errors.isEmpty && parsed.statements.first?.argument("name") == name, "\(line)")
      #expect(parsed.statements.first?.values("ingredient") == [], "\(line)")
    }
  }
}
