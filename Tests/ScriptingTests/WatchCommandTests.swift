import Foundation
import Model
import Persistence
import Repositories
import Scripting
import TestSupport
import Testing

/// `watch list`: shown now and after each change to the list, from this session or
/// another process's connection to the same file; bounded in scripts.
@Suite("watch command", .timeLimit(.minutes(1)))
struct WatchCommandTests {
  final class Shown {
    var texts: [String] = []
  }

  /// A session on a SQLite file with a list, and a second connection to the file (what
  /// another forager process syncing into it holds).
  private func fileSession() throws -> (Session, other: Library) {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let session = try Session(location: "sqlite:\(path)", now: { Harness.fixedNow })
    let interpreter = Interpreter(session: session)
    try interpreter.execute(
      """
      category add Dairy
      ingredient add milk --category Dairy
      list new Week --week 2024-W50
      list add 1 l milk to Week
      """)
    return (session, Library(store: try Session.factory.open("sqlite:\(path)")))
  }

  @Test func aListIsShownAgainAfterAWriteHereAndAfterAnotherConnectionsCommit() throws {
    let (session, other) = try fileSession()
    let shown = Shown()
    session.showUpdate = { result in
      shown.texts.append(Renderer().render(result, command: "watch list", json: false))
      switch shown.texts.count {
      case 1: _ = try? session.library.lists.addItem("eggs", to: "Week")  // this session
      case 2: _ = try? other.lists.addItem("butter", to: "Week")  // another connection
      default: break
      }
    }
    let result = try #require(try Interpreter(session: session).execute("watch list Week --count 3").last)
    #expect(shown.texts.count == 3)
    #expect(shown.texts[0].contains("milk") && !shown.texts[0].contains("eggs"))
    #expect(shown.texts[1].contains("eggs") && !shown.texts[1].contains("butter"))
    #expect(shown.texts[2].contains("butter"))
    #expect(result.json(command: "watch list")["watch"]?["shown"] == .int(3))
    try other.store.close()
  }

  /// Another connection's commit wakes the watch whatever it wrote (the store cannot know
  /// its kinds); when the list reads as it was shown, nothing is shown again.
  @Test func anotherConnectionsCommitElsewhereShowsNothingAgain() throws {
    let (session, other) = try fileSession()
    var showings = 0
    session.showUpdate = { _ in
      showings += 1
      if showings == 1 { _ = try? other.tags.getOrCreate("Quick") }
    }
    let result = try #require(try Interpreter(session: session).execute("watch list Week --for 0.5").last)
    #expect(showings == 1)
    #expect(result.json(command: "watch list")["watch"]?["shown"] == .int(1))
    try other.store.close()
  }

  /// A write to a kind the list does not read shows nothing again.
  @Test func aWriteElsewhereDoesNotShowTheListAgain() throws {
    let harness = try Harness()
    try harness.run("list new Week --week 2024-W50\nlist add eggs to Week")
    var showings = 0
    harness.session.showUpdate = { _ in
      showings += 1
      if showings == 1 { _ = try? harness.session.library.tags.getOrCreate("Quick") }
    }
    let result = try harness.json("watch list Week --for 0.3")
    #expect(showings == 1)
    #expect(result["watch"]?["shown"] == .int(1))
  }

  @Test func withoutAShowerTheShowingsComeBackInTheResult() throws {
    let harness = try Harness()
    try harness.run("list new Week --week 2024-W50\nlist add eggs to Week")
    let text = try harness.text("watch list Week --count 1")
    #expect(text.contains("eggs"))
    #expect(text.contains("watch of list 'Week' ended: shown 1 time after 1 showing"))
  }

  @Test func aScriptPrintsEachShowingAsItComes() throws {
    let session = try Session(location: "memory", now: { Harness.fixedNow })
    var output: [String] = []
    let runner = ScriptRunner(
      session: session, options: .init(), scriptName: "watch.forager", output: { output.append($0) }, diagnostics: { _ in })
    let report = runner.run("list new Week --week 2024-W50\nlist add eggs to Week\nwatch list Week --count 1")
    #expect(report.errors.isEmpty)
    #expect(output.count == 4)
    #expect(output[2].contains("eggs"))
    #expect(output[3].contains("ended: shown 1 time"))
  }

  @Test func aWatchInAScriptNeedsABoundAndBoundsAreChecked() throws {
    let harness = try Harness()
    try harness.run("list new Week --week 2024-W50")
    try harness.expectFailure("watch list Week", .failed, mentions: ["needs --count N or --for SECONDS"])
    try harness.expectFailure("watch list Week --count 0", .usage, mentions: ["--count"])
    try harness.expectFailure("watch list Week --for 100000", .usage, mentions: ["--for"])
    try harness.expectFailure("watch list Nowhere --count 1", .failed, mentions: ["Nowhere"])
  }
}
