import Foundation
import Model
import Scripting
import Testing

@testable import CommandLanguage

/// The command lines the documentation shows users must be commands this build runs:
/// a renamed command or option fails here instead of in a reader's terminal.
@Suite struct DocumentationTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let parser = ScriptParser<Session>(registry: .standard)

  /// README.md and every Markdown file under Docs/.
  static func documents() throws -> [(name: String, text: String)] {
    let docs = packageRoot.appendingPathComponent("Docs")
    let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
    let files = [packageRoot.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    return try files.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
  }

  /// Lines typed at the REPL prompt, `forager> COMMAND`, with where they are.
  static func promptLines(in text: String) -> [(line: Int, command: String)] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("forager> ") else { return nil }
      return (index + 1, String(trimmed.dropFirst("forager> ".count)))
    }
  }

  @Test func everyPromptLineInTheDocumentationParses() throws {
    var checked = 0
    for document in try Self.documents() {
      for (line, command) in Self.promptLines(in: document.text) {
        let parsed = parser.parse(command)
        #expect(parsed.errors.isEmpty, "\(document.name):\(line): '\(command)': \(parsed.errors.map(\.description))")
        #expect(parsed.statements.count == 1, "\(document.name):\(line): '\(command)'")
        checked += 1
      }
    }
    // The README alone shows several; a change that stops finding them must not pass silently.
    #expect(checked >= 6, "found only \(checked) prompt lines")
  }

  /// The README's session is one a new user types in order: every line must succeed.
  @Test func theReadmeSessionRuns() throws {
    let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = Self.promptLines(in: readme)
    #expect(!lines.isEmpty)
    let harness = try Harness()
    for (line, command) in lines {
      #expect(throws: Never.self, "README.md:\(line): '\(command)'") { try harness.run(command) }
    }
    #expect(try harness.count(.plannedMeal) == 1)
  }

  /// `### \`name\`` headings of COMMANDS.md's reference, and the code block after each
  /// "Example:" / "Examples:" line (a script: it may hold blocks spanning lines).
  static func commandReference() throws -> (headings: [String], examples: [(line: Int, command: String)]) {
    let text = try String(contentsOf: packageRoot.appendingPathComponent("Docs/COMMANDS.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var headings: [String] = [], examples: [(Int, String)] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if line.hasPrefix("### `"), line.hasSuffix("`") {
        headings.append(String(line.dropFirst("### `".count).dropLast()))
      } else if line == "Example:" || line == "Examples:" {
        var cursor = index + 1
        while cursor < lines.count && lines[cursor].isEmpty { cursor += 1 }
        if cursor < lines.count && lines[cursor] == "```" {
          let start = cursor + 1
          cursor += 1
          while cursor < lines.count && lines[cursor] != "```" { cursor += 1 }
          examples.append((start + 1, lines[start..<cursor].joined(separator: "\n")))
        }
        index = cursor
      }
      index += 1
    }
    return (headings, examples)
  }

  @Test func theCommandReferenceHasASectionForEveryCommandAndNoOther() throws {
    let reference = try Self.commandReference()
    let registered = CommandRegistry<Session>.standard.commands.map(\.name)
    #expect(Set(registered).subtracting(reference.headings).sorted() == [], "commands without a section in Docs/COMMANDS.md")
    #expect(Set(reference.headings).subtracting(registered).sorted() == [], "sections in Docs/COMMANDS.md for no command")
  }

  @Test func everyExampleInTheCommandReferenceParses() throws {
    let examples = try Self.commandReference().examples
    #expect(examples.count >= CommandRegistry<Session>.standard.commands.count)
    for (line, script) in examples {
      // Ids in examples are shortened the way the help shows them.
      let parsed = parser.parse(script.replacingOccurrences(of: "6f1c…", with: "a").replacingOccurrences(of: "0a2b…", with: "b"))
      #expect(parsed.errors.isEmpty, "COMMANDS.md:\(line): \(parsed.errors.map(\.description))")
      #expect(!parsed.statements.isEmpty, "COMMANDS.md:\(line): an empty example")
    }
  }
}
