import Foundation
import TestSupport
import Testing

@Suite struct BatchRunnerTests {
  static let exampleScripts: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Executables.examples.path)) ?? []
    return names.filter { $0.hasSuffix(".forager") }.sorted()
  }()

  @Test func thereAreAtLeastFiveExampleScripts() {
    #expect(Self.exampleScripts.count >= 5, "\(Self.exampleScripts)")
  }

  @Test(arguments: exampleScripts)
  func everyExampleScriptPrintsItsExpectedOutput(_ name: String) throws {
    let script = Executables.examples.appendingPathComponent(name)
    let expectedURL = script.deletingPathExtension().appendingPathExtension("expected")
    let expected = try String(contentsOf: expectedURL, encoding: .utf8)
    // From the package root, as the scripts' "Run:" lines say: a script may name files
    // (recipe-import.forager reads Tests/Fixtures/recipe-import).
    let result = try runProcess("forager-batch", ["--memory", script.path], directory: Executables.packageRoot)
    #expect(result.status == 0, "\(name): \(result.stderr)")
    #expect(normalizingIDs(result.stdout) == normalizingIDs(expected))
  }

  /// A sync example checks what only a working sync makes true: with its `sync` lines
  /// taken out, the same script fails.
  @Test(arguments: exampleScripts.filter { $0.hasPrefix("sync-") })
  func everySyncExampleFailsWithSyncTakenOut(_ name: String) throws {
    let script = try String(contentsOf: Executables.examples.appendingPathComponent(name), encoding: .utf8)
    #expect(try !Self.passesWithoutSync(script), "\(name) passes without syncing")
  }

  /// The check above flags a script whose expectations hold on each device alone (the
  /// earlier sync-templates example: each device's own "basil" is one ingredient).
  @Test func theCheckFlagsAScriptThatHoldsWithoutSync() throws {
    let script =
      "cloud open --memory\ndevice add B\ningredient add basil\ndevice use B\ningredient add BASIL\nsync all\nexpect count ingredient 1\n"
    #expect(try Self.passesWithoutSync(script))
  }

  /// Whether `script` succeeds with its `sync` and `sync all` lines removed.
  static func passesWithoutSync(_ script: String) throws -> Bool {
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
    let withoutSync = lines.filter { line in
      let words = line.split(separator: " ")
      return words.first != "sync" || words.dropFirst().first.map { $0 == "status" } == true
    }
    guard withoutSync.count < lines.count else { throw SyncLineMissing() }
    return try runProcess("forager-batch", ["--memory", "-"], input: withoutSync.joined(separator: "\n")).status == 0
  }

  struct SyncLineMissing: Error {}

  @Test func aFailingCommandExitsOneWithScriptAndLine() throws {
    let result = try runProcess("forager-batch", ["--memory", "-"], input: "category add A\n\ncategory delete Nope\ncategory add B\n")
    #expect(result.status == 1)
    #expect(result.stderr == "<stdin>:3: error: category delete: no category named 'Nope'\n")
    #expect(!result.stdout.contains("'B'"))
  }

  @Test func keepGoingRunsTheRest() throws {
    let result = try runProcess("forager-batch", ["--memory", "--keep-going"], input: "category delete Nope\ncategory add B\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("created category 'B'"))
  }

  @Test func aFailedExpectationExitsThree() throws {
    let result = try runProcess("forager-batch", ["--memory"], input: "seed defaults\nexpect count categories 3\n")
    #expect(result.status == 3)
    #expect(result.stderr.contains("<stdin>:2: error: expect count: expected 3 categories, found 7"))
  }

  @Test func usageErrorsExitTwo() throws {
    #expect(try runProcess("forager-batch", ["--memory", "--bogus"]).status == 2)
    #expect(try runProcess("forager-batch", ["--memory", "--store", "x.sqlite"]).status == 2)
    let missing = try runProcess("forager-batch", ["--memory", "/nonexistent/script.forager"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("cannot read script"))
    let syntax = try runProcess("forager-batch", ["--memory"], input: "category add A\nrecipe add \"Soup\n")
    #expect(syntax.status == 2)
    #expect(syntax.stdout.isEmpty, "a script with a syntax error runs nothing")
  }

  @Test func helpAndVersionExitZero() throws {
    let help = try runProcess("forager-batch", ["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("Exit codes"))
    let version = try runProcess("forager-batch", ["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
  }

  @Test func dryRunReportsEverySyntaxErrorAndTouchesNoStore() throws {
    let directory = try TemporaryDirectory.make()
    let store = directory.appendingPathComponent("kitchen.sqlite")
    let script = directory.appendingPathComponent("bad.forager")
    try "category add A\ncategory add \"B\nmeal plan 2024-02-30 dinner X\nfrobnicate\n".write(to: script, atomically: true, encoding: .utf8)
    let result = try runProcess("forager-batch", ["--store", store.path, "--dry-run", script.path])
    #expect(result.status == 2)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.contains(": error: ") }.map { $0.components(separatedBy: ": error:")[0] }
        == ["\(script.path):2", "\(script.path):3", "\(script.path):4"])
    #expect(!FileManager.default.fileExists(atPath: store.path))
    let clean = try runProcess("forager-batch", ["--dry-run", "-"], input: "seed defaults\ncounts\n")
    #expect(clean.status == 0)
    #expect(clean.stderr.contains("2 commands, no errors"))
  }

  @Test func atomicLeavesTheStoreAsItWas() throws {
    let store = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path
    #expect(try runProcess("forager-batch", ["--store", store], input: "category add Kept\n").status == 0)
    let failing = try runProcess(
      "forager-batch", ["--store", store, "--atomic"], input: "seed sample\ncategory add New\nrecipe delete Nope\n")
    #expect(failing.status == 1)
    #expect(failing.stderr.contains("no changes kept"))
    let check = try runProcess("forager-batch", ["--store", store], input: "expect count categories 1\nexpect count recipes 0\n")
    #expect(check.status == 0, "\(check.stderr)")
    let passing = try runProcess("forager-batch", ["--store", store, "--atomic"], input: "seed defaults\n")
    #expect(passing.status == 0)
    #expect(try runProcess("forager-batch", ["--store", store], input: "expect count categories 8\n").status == 0)
  }

  @Test func jsonPrintsOneParseableObjectPerCommand() throws {
    let result = try runProcess("forager-batch", ["--memory", "--json"], input: "seed defaults\ncategory list\ncategory delete Nope\n")
    #expect(result.status == 1)
    let objects = try result.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(objects.count == 3)
    #expect(objects.map { $0["command"] as? String } == ["seed defaults", "category list", "category delete"])
    #expect((objects[1]["categories"] as? [Any])?.count == 7)
    #expect(objects[2]["ok"] as? Bool == false)
  }

  @Test func withoutAStoreOptionTheDefaultStoreIsUsed() throws {
    let data = try TemporaryDirectory.make()
    let environment = ["XDG_DATA_HOME": data.path]
    #expect(try runProcess("forager-batch", [], input: "category add Produce\n", environment: environment).status == 0)
    #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("forager/forager.sqlite").path))
    #expect(try runProcess("forager-batch", [], input: "expect exists category produce\n", environment: environment).status == 0)
  }
}
