import Foundation
import Model
import Repositories
import Scripting
import Testing

@testable import CommandLanguage

@Suite struct ScriptRunnerTests {
  final class Capture {
    var output: [String] = []
    var diagnostics: [String] = []
  }

  func run(_ text: String, options: ScriptRunner.Options = .init(), session: Session? = nil) throws -> (
    ScriptRunner.Report, Capture, Session
  ) {
    let session = try session ?? Session(location: "memory", now: { Harness.fixedNow })
    let capture = Capture()
    let runner = ScriptRunner(
      session: session, options: options, scriptName: "test.forager", output: { capture.output.append($0) },
      diagnostics: { capture.diagnostics.append($0) })
    return (runner.run(text), capture, session)
  }

  func count(_ session: Session, _ kind: EntityKind) throws -> Int { try session.library.counts()[kind] ?? 0 }

  @Test func aScriptStopsAtTheFirstFailureWithItsLine() throws {
    let (report, capture, session) = try run("category add A\ncategory delete Nope\ncategory add B")
    #expect(report.status == .commandFailed)
    #expect(capture.diagnostics == ["test.forager:2: error: category delete: no category named 'Nope'"])
    #expect(try count(session, .category) == 1)
  }

  @Test func keepGoingRunsTheRestAndReportsTheFirstFailure() throws {
    let (report, capture, session) = try run(
      "category add A\nexpect count categories 5\ncategory delete Nope\ncategory add B", options: .init(keepGoing: true))
    #expect(report.status == .expectationFailed)
    #expect(capture.diagnostics.count == 2)
    #expect(report.succeeded == 2)
    #expect(try count(session, .category) == 2)
  }

  @Test func aSyntaxErrorAnywhereRunsNothing() throws {
    let (report, capture, session) = try run("category add A\ncategory add \"B\nmeal plan 2024-13-01 dinner X")
    #expect(report.status == .usage)
    #expect(capture.diagnostics.map { $0.prefix(16) } == ["test.forager:2: ", "test.forager:3: "])
    #expect(try count(session, .category) == 0)
  }

  @Test func dryRunReportsEveryErrorWithoutASession() {
    var lines: [String] = []
    let report = ScriptRunner.check("counts\nfrobnicate\nrecipe list --x", scriptName: "s", diagnostics: { lines.append($0) })
    #expect(report.status == .usage)
    #expect(report.commands == 1)
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("s:2: error: unknown command 'frobnicate'"))
    #expect(ScriptRunner.check("counts", scriptName: "s", diagnostics: { _ in }).status == .success)
  }

  @Test func atomicLeavesTheStoreAsItWasWhenACommandFails() throws {
    let session = try Session(location: "memory")
    try Interpreter(context: session).execute("category add Kept")
    let (report, capture, _) = try run(
      "category add A\nrecipe add Soup --ingredient \"1 onion\"\ncategory delete Nope", options: .init(atomic: true), session: session)
    #expect(report.status == .commandFailed)
    #expect(report.rolledBack)
    #expect(capture.diagnostics.last?.contains("no changes kept") == true)
    #expect(try count(session, .category) == 1)
    #expect(try count(session, .recipe) == 0)
  }

  @Test func atomicKeepsEverythingWhenTheScriptSucceeds() throws {
    let (report, _, session) = try run("seed sample\nexpect count recipes 8", options: .init(atomic: true))
    #expect(report.status == .success)
    #expect(!report.rolledBack)
    #expect(try count(session, .recipe) == 8)
  }

  @Test func atomicCoversDevicesAddedByTheScript() throws {
    let (report, _, session) = try run(
      "category add A\ndevice add phone\ndevice use phone\ncategory add B\nexpect count categories 2",
      options: .init(atomic: true))
    #expect(report.status == .expectationFailed)
    #expect(try count(session, .category) == 0)
    try session.useDevice("default")
    #expect(try count(session, .category) == 0)
  }

  @Test func atomicWithKeepGoingRunsEverythingThenRollsBack() throws {
    let (report, _, session) = try run(
      "category add A\ncategory delete Nope\ncategory add B", options: .init(keepGoing: true, atomic: true))
    #expect(report.succeeded == 2)
    #expect(report.rolledBack)
    #expect(try count(session, .category) == 0)
  }

  @Test func jsonModePrintsOneObjectPerCommandAndErrorsToo() throws {
    let (_, capture, _) = try run("category add A\ncategory delete Nope", options: .init(json: true))
    #expect(capture.output.count == 2)
    #expect(capture.output[0].hasPrefix(#"{"command":"category add","ok":true"#))
    #expect(capture.output[1].hasPrefix(#"{"command":"category delete","ok":false"#))
  }
}

@Suite struct ReplEngineTests {
  @Test func aLineRunsAndPrintsItsResult() throws {
    let repl = ReplEngine(interpreter: Interpreter(context: try Session(location: "memory")))
    let reply = repl.feed("category add Produce")
    #expect(reply.output?.hasPrefix("created category 'Produce'") == true)
    #expect(reply.error == nil)
    #expect(repl.feed("").output == nil)
  }

  @Test func errorsHaveNoLineNumberAtThePrompt() throws {
    let repl = ReplEngine(interpreter: Interpreter(context: try Session(location: "memory")))
    #expect(repl.feed("category delete Nope").error == "error: category delete: no category named 'Nope'")
    #expect(repl.feed("recipe add \"Soup").error == "error: unterminated double quote (opened at column 12)")
  }

  @Test func aBlockWaitsForEndWithAContinuationPrompt() throws {
    let repl = ReplEngine(interpreter: Interpreter(context: try Session(location: "memory")))
    #expect(repl.prompt == "forager> ")
    #expect(repl.feed("recipe add Soup:").output == nil)
    #expect(repl.prompt == "...> ")
    _ = repl.feed("1 onion")
    #expect(repl.feed("end").output?.hasPrefix("created recipe 'Soup' with 1 ingredient line") == true)
    #expect(repl.prompt == "forager> ")
  }

  @Test func cancelDropsAnUnfinishedCommand() throws {
    let repl = ReplEngine(interpreter: Interpreter(context: try Session(location: "memory")))
    _ = repl.feed("recipe add Soup:")
    repl.cancel()
    #expect(!repl.isContinuing)
    #expect(repl.feed("counts").output?.contains("recipe") == true)
  }

  @Test func thePromptNamesTheDeviceWhenThereAreSeveral() throws {
    let repl = ReplEngine(interpreter: Interpreter(context: try Session(location: "memory")))
    _ = repl.feed("device add phone")
    _ = repl.feed("device use phone")
    #expect(repl.prompt == "forager[phone]> ")
    #expect(repl.feed("quit").quits)
  }
}

@Suite struct CompleterTests {
  func completer() throws -> Completer<Session> {
    let session = try Session(location: "memory")
    try Interpreter(context: session).execute("seed sample\nlist new Groceries --week 2024-W50")
    return Completer(context: session)
  }

  @Test func commandWordsComplete() throws {
    let completer = try completer()
    #expect(completer.candidates(before: "", word: "rec") == ["recipe"])
    #expect(completer.candidates(before: "", word: "re") == ["recipe", "restore"])
    #expect(completer.candidates(before: "recipe ", word: "s") == ["show", "search", "suggest", "set"])
    #expect(completer.candidates(before: "recipe list ", word: "--c") == ["--cuisine"])
  }

  @Test func namesFromTheStoreCompleteQuotedWhenTheyHaveSpaces() throws {
    let completer = try completer()
    #expect(completer.candidates(before: "recipe show ", word: "Eg") == ["\"Egg Fried Rice\""])
    #expect(completer.candidates(before: "recipe show \"", word: "Eg", inQuote: true) == ["Egg Fried Rice"])
    #expect(completer.candidates(before: "category show ", word: "Pro") == ["Produce"])
    #expect(completer.candidates(before: "ingredient show ", word: "spring").contains("\"Spring onion\""))
  }

  @Test func aNameTypedUnquotedCompletesItsRemainingWords() throws {
    let completer = try completer()
    #expect(completer.candidates(before: "recipe show Egg ", word: "Fr") == ["Fried Rice"])
  }

  @Test func optionValuesAndKeywordsComplete() throws {
    let completer = try completer()
    #expect(completer.candidates(before: "ingredient add x --category ", word: "Da") == ["Dairy"])
    #expect(completer.candidates(before: "meal plan 2024-12-13 ", word: "d") == ["dinner"])
    #expect(completer.candidates(before: "list add-recipe Egg Fried Rice ", word: "t") == ["to"])
    #expect(completer.candidates(before: "list add-recipe \"Egg Fried Rice\" to ", word: "Gro") == ["Groceries"])
    #expect(completer.candidates(before: "help ", word: "meal p").contains("\"meal plan\""))
  }
}
