import CommandLanguage
import Testing

/// A language with nothing of the kitchen: a tally, its commands, its own value format and
/// completion source. The module parses, checks, runs, helps and completes it.
final class Tally: CommandContext {
  var count = 0
  var names = ["apples", "apricots", "pears"]
  var showUpdate: ((CommandResult) -> Void)?
  var registry: CommandRegistry<Tally> { Tally.commands }
  var printsJSON: Bool { false }
  var prompt: String { "tally[\(count)]> " }
  var performed: [String] = []

  func perform(_ invocation: Invocation<Tally>) throws -> CommandResult {
    performed.append(invocation.command)
    return try invocation.spec.run(invocation, in: self)
  }

  func reason(for error: any Error) -> String { "tally: \(error)" }

  func completions(from source: String, startingWith typed: String) -> [String] { source == "fruit" ? names : [] }

  struct Refused: Error, CustomStringConvertible {
    var description: String { "refused" }
  }

  static let even = ValueType.custom(
    ValueFormat("even", placeholder: "EVEN") { text in
      guard let number = Int(text), number % 2 == 0 else { return .failure(ValueProblem("'\(text)' is not even")) }
      return .success(String(number))
    })

  static let commands = CommandRegistry<Tally>(
    groups: [
      CommandGroup(
        "tally", summary: "Counting",
        commands: [
          CommandSpec(
            "add", summary: "Add to the tally.", parameters: [.word("n", .integer, range: .from(1, to: 100), help: "how many")],
            examples: ["add 3"]
          ) { invocation, tally in
            tally.count += Int(invocation.argument("n")) ?? 0
            return CommandResult(.message("tally: \(tally.count)"))
          },
          CommandSpec("add even", summary: "Add an even number.", parameters: [.word("n", even)], examples: ["add even 4"]) {
            invocation, tally in
            tally.count += Int(invocation.argument("n")) ?? 0
            return CommandResult(.message("tally: \(tally.count)"))
          },
          CommandSpec(
            "eat", summary: "Eat a fruit.", parameters: [.rest("fruit", completion: .source("fruit"))], examples: ["eat apples"]
          ) { _, _ in throw Refused() },
        ])
    ],
    introduction: ["Tally commands."])
}

@Suite struct ToyLanguageTests {
  @Test func aContextOfItsOwnRunsThroughTheInterpreter() throws {
    let tally = Tally()
    let results = try Interpreter(context: tally).execute("add 3\nadd even 4")
    #expect(results.map { Renderer().render($0, command: "", json: false) } == ["tally: 3", "tally: 7"])
    #expect(tally.performed == ["add", "add even"])
  }

  @Test func valuesAreCheckedBeforeAnythingRuns() {
    let tally = Tally()
    let parsed = ScriptParser(registry: tally.registry).parse("add 3\nadd 0\nadd even 3\nad 1")
    #expect(parsed.statements.count == 1)
    #expect(
      parsed.errors.map(\.description) == [
        "add: n: '0' is out of range; give a whole number from 1 to 100",
        "add even: n: '3' is not even",
        "unknown command 'ad'; did you mean 'add'?; type 'help' for the list",
      ])
    #expect(tally.count == 0)
  }

  @Test func anErrorOfTheActionIsNamedByTheContext() {
    let tally = Tally()
    #expect(throws: ScriptError(.failed, command: "eat", reason: "tally: refused", line: 1)) {
      try Interpreter(context: tally).execute("eat pears")
    }
  }

  @Test func helpAndCompletionComeFromTheRegistry() throws {
    let tally = Tally()
    let repl = ReplEngine(interpreter: Interpreter(context: tally))
    #expect(repl.prompt == "tally[0]> ")
    #expect(repl.feed("add --help").output?.contains("usage: add N") == true)
    let overview = HelpText.overview(tally.registry)
    #expect(Renderer().render(overview, command: "help", json: false).hasPrefix("Tally commands.\n\nCounting\n"))
    let completer = Completer(context: tally)
    #expect(completer.candidates(before: "", word: "a") == ["add"])
    #expect(completer.candidates(before: "eat ", word: "ap") == ["apples", "apricots"])
  }
}
