import CommandLanguage
import Foundation
import Model
import Persistence
import Repositories
import Scripting
import Synchronization
import Testing

/// restore --before through the command language: a summary, a dry run in the REPL until
/// --apply, and refusals that change nothing.
@Suite("Restore command")
struct RestoreCommandTests {
  /// A clock a test moves on by hand.
  final class Clock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_734_048_000))  // 2024-12-13
    func now() -> Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
  }

  /// A time as the command reads it, to the millisecond.
  static func text(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions.insert(.withFractionalSeconds)
    return formatter.string(from: date)
  }

  @Test func aDryRunInTheREPLShowsTheSummaryAndApplyRestoresEveryDevice() throws {
    let clock = Clock()
    let session = try Session(location: "memory", now: clock.now)
    session.showsWritesFirst = true
    let interpreter = Interpreter(context: session)
    @discardableResult func run(_ text: String) throws -> CommandResult { try interpreter.execute(text).last ?? .empty }
    try run(
      """
      cloud open --memory
      device add phone
      category add Produce
      recipe add "Tomato Pasta" --ingredient "2 tomatoes"
      sync all
      """)
    // T on the store's clock (history is dated by it), with time on either side.
    clock.advance(60)
    Thread.sleep(forTimeInterval: 0.02)
    let time = Self.text(session.current.store.clock())
    Thread.sleep(forTimeInterval: 0.02)
    clock.advance(60)
    try run(
      """
      device use phone
      category rename Produce to Vegetables
      recipe delete "Tomato Pasta"
      category add Bakery
      sync all
      device use default
      sync all
      """)
    clock.advance(60)
    let counts = try session.library.counts()
    let shown = try run("restore --before \(time)")
    let dryRun = shown.json(command: "test")
    #expect(dryRun["restore"]?["applied"] == .bool(false))
    #expect(dryRun["restore"]?.int("renamed") == 1 && dryRun["restore"]?.int("removed") == 1)
    #expect(Renderer().render(shown, command: "", json: false).contains("run again with --apply"))
    #expect(try session.library.counts() == counts, "a dry run changes nothing")

    let applied = try run("restore --before \"\(time)\" --apply").json(command: "test")
    #expect(applied["restore"]?["applied"] == .bool(true))
    #expect(try session.library.categories.all().map(\.displayName) == ["Produce"])
    try run("sync all\ndevice use phone")
    #expect(try session.library.categories.all().map(\.displayName) == ["Produce"])
    #expect(try session.library.recipes.details("Tomato Pasta").lines.count == 1)
  }

  @Test func badTimesAndUnsyncedChangesAreRefusedAndChangeNothing() throws {
    let harness = try Harness()
    try harness.expectFailure("restore --before yesterday", .failed, mentions: ["'yesterday' is not a time", "--before"])
    try harness.expectFailure("restore --before \"2026-13-45 10:00\"", .failed, mentions: ["is not a time"])
    try harness.expectFailure("restore --before \"2024-12-13 00:00\"", .failed, mentions: ["no synced record"])
    try harness.run("cloud open --memory\ncategory add Produce\nsync")
    try harness.expectFailure("restore --before \"2099-01-01 00:00\"", .failed, mentions: ["in the future"])
    try harness.expectFailure("restore --before \"2020-01-01 00:00\"", .failed, mentions: ["before the household's first change"])
    try harness.expectFailure("restore --before \"2024-12-13 00:00\" --dry-run --apply", .failed, mentions: ["contradict"])
    try harness.run("category add Dairy")
    try harness.expectFailure("restore --before \"2024-12-13 00:00\"", .failed, mentions: ["not yet synced", "sync first"])
  }
}
