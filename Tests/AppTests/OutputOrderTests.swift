import Foundation
import TestSupport
import Testing

/// With standard output and standard error on one file, each error line comes after the
/// output of the lines that ran before it, in `forager-batch` and the REPL reading a pipe.
@Suite struct OutputOrderTests {
  /// Commands that succeed, with failures between them.
  static let script = (1...12).map { $0 % 3 == 0 ? "category delete Nope\($0)" : "category add C\($0)" }.joined(separator: "\n") + "\n"

  /// The lines of `output` that come from the script, in order: "ok N" for a category
  /// created, "error N" for a failure.
  static func events(_ output: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
      if let range = line.range(of: "created category 'C") {
        return "ok " + line[range.upperBound...].prefix { $0.isNumber }
      }
      if let range = line.range(of: "no category named 'Nope") {
        return "error " + line[range.upperBound...].prefix { $0.isNumber }
      }
      return nil
    }
  }

  static let expected = (1...12).map { $0 % 3 == 0 ? "error \($0)" : "ok \($0)" }

  @Test func theBatchRunnerWritesErrorsAfterTheOutputBeforeThem() throws {
    let run = try runProcessWithOneOutput("forager-batch", ["--memory", "--keep-going", "-"], input: Self.script)
    #expect(run.status == 1)
    #expect(Self.events(run.output) == Self.expected, "\(run.output)")
  }

  @Test func theREPLOnAPipeWritesErrorsAfterTheOutputBeforeThem() throws {
    let run = try runProcessWithOneOutput("forager", ["--memory"], input: Self.script)
    #expect(run.status == 0)
    #expect(Self.events(run.output) == Self.expected, "\(run.output)")
  }
}
