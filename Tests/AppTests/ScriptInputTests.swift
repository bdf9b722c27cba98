import Foundation
import TestSupport
import Testing

/// A script that cannot be read says why: a missing file, or the first byte that is not
/// UTF-8 with its line and column. Nothing runs (exit code 2).
@Suite struct ScriptInputTests {
  @Test func aMissingScriptIsNamedAsMissing() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("nope.forager").path
    let result = try runProcess("forager-batch", ["--memory", path])
    #expect(result.status == 2)
    #expect(result.stderr == "forager-batch: cannot read script '\(path)': no such file\n")
  }

  @Test func aScriptThatIsNotUTF8NamesTheByteLineAndColumn() throws {
    let script = try TemporaryDirectory.make().appendingPathComponent("bad.forager")
    try Data("category add A\ncategory add Bé".utf8 + [0xFF] + Array("\n".utf8)).write(to: script)
    let result = try runProcess("forager-batch", ["--memory", script.path])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty, "nothing ran: \(result.stdout)")
    #expect(result.stderr == "forager-batch: \(script.path) is not UTF-8 text: byte 0xFF at line 2, column 16\n")
  }
}
