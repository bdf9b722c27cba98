import CommandLanguage
import Foundation
import Model
import Persistence
import Repositories
import Scripting
import TestSupport
import Testing

/// `forager-batch --undo-file F` (``UndoFile``) and `undo --file F`: running a script, then
/// its undo file, shows every record as before the script; bad files and paths are refused
/// with what was wrong, and change nothing.
@Suite("Undo file of a batch script")
struct UndoFileTests {
  /// Every record of the session's current device: live ones with their fields.
  static func view(_ session: Session) throws -> [String: [FieldValue]] {
    try session.current.store.read { reader in
      var rows: [String: [FieldValue]] = [:]
      for kind in EntityKind.allCases {
        for record in try reader.fetch(RecordQuery(kind, sort: [])) where record.meta.isLive {
          rows["\(kind.rawValue) \(record.id.lowercaseText)"] = record.values
        }
      }
      return rows
    }
  }

  /// Runs `script` with an undo file at `path`; returns the runner's report and diagnostics.
  static func runScript(_ script: String, _ session: Session, undoFile path: String, force: Bool = false) throws -> (
    ScriptRunner.Report, [String]
  ) {
    session.undoFile = try UndoFile(path: path, force: force)
    defer { session.undoFile = nil }
    var diagnostics: [String] = []
    let runner = ScriptRunner(
      session: session, scriptName: "week.forager", output: { _ in }, diagnostics: { diagnostics.append($0) })
    return (runner.run(script), diagnostics)
  }

  static let seed = """
    category add Produce
    category add Dairy
    ingredient add basil --category Produce
    recipe add "Tomato Pasta" --ingredient "2 tomatoes" --ingredient basil
    """

  static let script = """
    category rename Produce to Vegetables
    category delete Dairy
    category add Bakery
    recipe delete "Tomato Pasta"
    ingredient add rye --category Bakery
    """

  @Test func theUndoFileOfAScriptPutsEveryRecordBack() throws {
    let harness = try Harness()
    try harness.run(Self.seed)
    let before = try Self.view(harness.session)
    let path = try TemporaryDirectory.make().appendingPathComponent("undo.json").path
    let (report, diagnostics) = try Self.runScript(Self.script, harness.session, undoFile: path)
    #expect(report.status == .success, "\(diagnostics)")
    #expect(try Self.view(harness.session) != before)

    let result = try harness.json("undo --file \(path)")
    #expect(try Self.view(harness.session) == before)
    guard case .int(let records)? = result["undo"]?["records"] else {
      Issue.record("no undo data in \(result)")
      return
    }
    #expect(records >= 5, "the rename, the delete, two creations and the recipe with its lines")
  }

  @Test func aScriptThatStopsLeavesTheUndoOfTheCommandsThatRan() throws {
    let harness = try Harness()
    try harness.run(Self.seed)
    let before = try Self.view(harness.session)
    let path = try TemporaryDirectory.make().appendingPathComponent("undo.json").path
    let (report, _) = try Self.runScript(
      "category rename Produce to Vegetables\ncategory delete Nope\ncategory add Bakery", harness.session, undoFile: path)
    #expect(report.status == .commandFailed)
    try harness.run("undo --file \(path)")
    #expect(try Self.view(harness.session) == before)
  }

  @Test func anAtomicRunWithAnUndoFileRunsNothing() throws {
    let session = try Session(location: "memory", now: { Harness.fixedNow })
    session.undoFile = try UndoFile(path: try TemporaryDirectory.make().appendingPathComponent("undo.json").path, force: false)
    var diagnostics: [String] = []
    let runner = ScriptRunner(
      session: session, options: .init(atomic: true), scriptName: "week.forager", output: { _ in },
      diagnostics: { diagnostics.append($0) })
    #expect(runner.run("category add Produce").status == .usage)
    #expect(diagnostics.first?.contains("an atomic run writes no undo file") == true, "\(diagnostics)")
    #expect(try session.library.counts()[.category] ?? 0 == 0)
  }

  @Test func anExistingFileOrAMissingDirectoryIsRefusedBeforeAnythingRuns() throws {
    let directory = try TemporaryDirectory.make()
    let existing = directory.appendingPathComponent("undo.json").path
    try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
    #expect(throws: UndoFileError.self) { try UndoFile(path: existing, force: false) }
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
    #expect(throws: Never.self) { try UndoFile(path: existing, force: true) }
    let missing = directory.appendingPathComponent("no/such/dir/undo.json").path
    do {
      _ = try UndoFile(path: missing, force: false)
      Issue.record("a missing directory was accepted")
    } catch {
      #expect(error.description.contains("does not exist") && error.description.contains(missing), "\(error)")
    }
    #expect(throws: UndoFileError.self) { try UndoFile(path: directory.path, force: true) }
  }

  @Test func aBadUndoFileIsRefusedAndChangesNothing() throws {
    let harness = try Harness()
    try harness.run(Self.seed)
    let directory = try TemporaryDirectory.make()
    let path = directory.appendingPathComponent("undo.json").path
    _ = try Self.runScript(Self.script, harness.session, undoFile: path)
    let after = try Self.view(harness.session)
    let good = try String(contentsOfFile: path, encoding: .utf8)
    let cases: [(text: String, fragment: String)] = [
      ("not json", "not an undo file"),
      (good.replacingOccurrences(of: "\"forager-undo\"", with: "\"other\""), "format"),
      (good.replacingOccurrences(of: "\"version\":1", with: "\"version\":9"), "version 9"),
      (good.replacingOccurrences(of: "\"kind\":\"category\"", with: "\"kind\":\"spaceship\""), "unknown kind 'spaceship'"),
      (good.replacingOccurrences(of: "\"displayName\"", with: "\"colour\""), "no field 'colour'"),
      (good.replacingOccurrences(of: "\"Dairy\"", with: "\"Da\\u0001iry\""), "field 'displayName'"),
      (good.replacingOccurrences(of: "\"device\":\"default\"", with: "\"device\":\"fridge\""), "device 'fridge'"),
    ]
    for (index, item) in cases.enumerated() {
      let bad = directory.appendingPathComponent("bad-\(index).json").path
      try Data(item.text.utf8).write(to: URL(fileURLWithPath: bad))
      try harness.expectFailure("undo --file \(bad)", .failed, mentions: [item.fragment])
      #expect(try Self.view(harness.session) == after, "case \(index)")
    }
    try harness.expectFailure("undo --file \(directory.appendingPathComponent("none.json").path)", .failed, mentions: ["no such file"])
  }

  @Test func aLaterChangeIsNamedAndRefusedUnlessForced() throws {
    let harness = try Harness()
    try harness.run(Self.seed)
    let before = try Self.view(harness.session)
    let path = try TemporaryDirectory.make().appendingPathComponent("undo.json").path
    _ = try Self.runScript(Self.script, harness.session, undoFile: path)
    try harness.run("category rename Vegetables to Greens")
    try harness.expectFailure("undo --file \(path)", .failed, mentions: ["a later change rewrote category 'Greens'", "--force"])
    try harness.run("undo --file \(path) --force")
    #expect(try Self.view(harness.session) == before)
  }

  /// An undo that fails midway (its rename back meets a name taken since) writes nothing
  /// of the file: the delete it also undoes stays.
  @Test func anUndoThatFailsMidwayAppliesNothing() throws {
    let harness = try Harness()
    try harness.run(Self.seed)
    let path = try TemporaryDirectory.make().appendingPathComponent("undo.json").path
    _ = try Self.runScript("category delete Dairy\ncategory rename Produce to Vegetables", harness.session, undoFile: path)
    try harness.run("category add Produce")
    let after = try Self.view(harness.session)
    #expect(harness.error("undo --file \(path)") != nil)
    #expect(try Self.view(harness.session) == after)
    #expect(try harness.session.library.categories.find("Dairy") == nil)
  }
}
