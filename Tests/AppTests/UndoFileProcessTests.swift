import Foundation
import TestSupport
import Testing

/// `forager-batch --undo-file`: a script's undo file, applied by a later run with
/// `undo --file`, puts the store back; bad paths and flags are usage errors that run nothing.
@Suite struct UndoFileProcessTests {
  @Test func aScriptThenItsUndoFileLeaveTheStoreAsBefore() throws {
    let directory = try TemporaryDirectory.make()
    let store = directory.appendingPathComponent("kitchen.sqlite").path
    let undo = directory.appendingPathComponent("undo.json").path
    let seed = try runProcess("forager-batch", ["--store", store, "-"], input: "category add Produce\ncategory add Dairy\n")
    #expect(seed.status == 0, "\(seed.stderr)")
    let listing = { try runProcess("forager-batch", ["--store", store, "-"], input: "category list --json\n").stdout }
    let before = try listing()

    let script = "category rename Produce to Vegetables\ncategory delete Dairy\ncategory add Bakery\n"
    let run = try runProcess("forager-batch", ["--store", store, "--undo-file", undo, "-"], input: script)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try listing() != before)
    let again = try runProcess("forager-batch", ["--store", store, "--undo-file", undo, "-"], input: "category add Frozen\n")
    #expect(again.status == 2 && again.stderr.contains("the file exists; pass --force"), "\(again.stderr)")
    #expect(try !listing().contains("Frozen"), "a refused undo file runs nothing")

    let undone = try runProcess("forager-batch", ["--store", store, "-"], input: "undo --file \(undo)\n")
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("undid '<stdin>' (3 commands)"), "\(undone.stdout)")
    #expect(try listing() == before)
  }

  @Test func badUndoFileArgumentsAreUsageErrors() throws {
    let directory = try TemporaryDirectory.make()
    let missing = directory.appendingPathComponent("no/such/undo.json").path
    let noDirectory = try runProcess("forager-batch", ["--memory", "--undo-file", missing, "-"], input: "category add A\n")
    #expect(noDirectory.status == 2 && noDirectory.stderr.contains("does not exist"), "\(noDirectory.stderr)")
    let atomic = try runProcess(
      "forager-batch", ["--memory", "--atomic", "--undo-file", directory.appendingPathComponent("u.json").path, "-"],
      input: "category add A\n")
    #expect(atomic.status == 2 && atomic.stderr.contains("--undo-file and --atomic"), "\(atomic.stderr)")
    let force = try runProcess("forager-batch", ["--memory", "--force", "-"], input: "category add A\n")
    #expect(force.status == 2 && force.stderr.contains("--force"), "\(force.stderr)")
  }
}
