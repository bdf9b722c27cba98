import Foundation
import TestSupport
import Testing

@Suite struct REPLTests {
  @Test func pipedLinesRunWithoutPromptsAndErrorsGoToStandardError() throws {
    let result = try runProcess(
      "forager", ["--memory"],
      input: "seed defaults\ncategory list\ncategory delete Nope\nrecipe add Soup:\n  1 onion\nend\nexpect count recipes 1\n")
    #expect(result.status == 0)
    #expect(!result.stdout.contains("forager>"))
    #expect(result.stdout.contains("Meat & Seafood"))
    #expect(result.stdout.contains("created recipe 'Soup' with 1 ingredient line"))
    #expect(result.stdout.contains("ok: 1 recipe"))
    #expect(result.stderr.contains("error: category delete: no category named 'Nope'"))
    #expect(result.stderr.contains("store: in memory"))
  }

  @Test func quitEndsTheSession() throws {
    let result = try runProcess("forager", ["--memory"], input: "quit\ncategory add Never\n")
    #expect(result.status == 0)
    #expect(!result.stdout.contains("Never"))
  }

  @Test func theDefaultStoreIsCreatedInTheDataDirectoryAndSaidOnStart() throws {
    let data = try TemporaryDirectory.make()
    let result = try runProcess("forager", [], input: "category add Produce\n", environment: ["XDG_DATA_HOME": data.path])
    let file = data.appendingPathComponent("forager/forager.sqlite").path
    #expect(result.stderr.contains("store: \(file) (created)"))
    #expect(FileManager.default.fileExists(atPath: file))
    let again = try runProcess("forager", [], input: "expect exists category Produce\n", environment: ["XDG_DATA_HOME": data.path])
    #expect(again.stderr.contains("store: \(file)\n"))
    #expect(again.stdout.contains("ok: category 'Produce' exists"))
  }

  @Test func storeHelpAndVersionOptions() throws {
    let store = try TemporaryDirectory.make().appendingPathComponent("k.sqlite").path
    #expect(try runProcess("forager", ["--store", store], input: "category add A\n").status == 0)
    #expect(try runProcess("forager", ["--store", store], input: "expect count categories 1\n").stdout.contains("ok: 1 category"))
    let help = try runProcess("forager", ["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("--memory"))
    #expect(try runProcess("forager", ["--version"]).stdout.contains("0.1.0"))
    #expect(try runProcess("forager", ["--memory", "--store", "x"]).status == 2)
  }
}
