import Foundation
import Model
import Repositories
import Scripting
import Testing

@testable import CommandLanguage

/// An interpreter over a fresh in-memory store with a fixed clock, and helpers that
/// run command text and look at what came back.
final class Harness {
  static let fixedNow = Date(timeIntervalSince1970: 1_734_048_000)  // 2024-12-13

  let session: Session
  let interpreter: Interpreter<Session>

  init() throws {
    session = try Session(location: "memory", now: { Harness.fixedNow })
    interpreter = Interpreter(context: session)
  }

  /// Runs the text and returns the last command's result.
  @discardableResult
  func run(_ text: String) throws -> CommandResult {
    try interpreter.execute(text).last ?? .empty
  }

  /// Runs the text and returns the last result as it prints on a terminal.
  func text(_ text: String) throws -> String {
    Renderer().render(try run(text), command: "", json: false)
  }

  /// Runs the text and returns the last result's JSON.
  func json(_ text: String) throws -> JSONValue {
    try run(text).json(command: "test")
  }

  /// The error running the text raises, or nil when it succeeds.
  func error(_ text: String) -> ScriptError? {
    do {
      try interpreter.execute(text)
      return nil
    } catch {
      return error
    }
  }

  /// Live records of a kind in the current device's store.
  func count(_ kind: EntityKind) throws -> Int {
    try session.library.counts()[kind] ?? 0
  }

  /// Every count, to check that a failing command changed nothing.
  func counts() throws -> [EntityKind: Int] {
    try session.library.counts()
  }

  /// Checks that `text` fails with `kind`, mentions every fragment, and changes nothing.
  func expectFailure(
    _ text: String, _ kind: ScriptError.Kind, mentions fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try counts()
    guard let error = error(text) else {
      Issue.record("expected '\(text)' to fail", sourceLocation: sourceLocation)
      return
    }
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
    for fragment in fragments {
      #expect(error.description.contains(fragment), "'\(error.description)' should mention '\(fragment)'", sourceLocation: sourceLocation)
    }
    #expect(try counts() == before, "a failing command must change nothing", sourceLocation: sourceLocation)
  }
}

extension JSONValue {
  /// The rows of a table in a result's JSON.
  func rows(_ key: String) -> [JSONValue] {
    guard case .array(let rows)? = self[key] else { return [] }
    return rows
  }

  /// A string member.
  func string(_ key: String) -> String? {
    guard case .string(let text)? = self[key] else { return nil }
    return text
  }

  /// An integer member.
  func int(_ key: String) -> Int? {
    guard case .int(let number)? = self[key] else { return nil }
    return number
  }

  /// A Boolean member.
  func bool(_ key: String) -> Bool? {
    guard case .bool(let value)? = self[key] else { return nil }
    return value
  }
}
