import Foundation
import Sync

/// Checks of names and identifiers, at the door: every refusal says which value and why.
/// Quotes, semicolons and SQL words are ordinary characters here; storage binds values.
public enum Validation {
  /// A household or device name: not empty, at most `limit` characters, no control
  /// characters or bidi overrides (the devices' rule for names, `ChangeRules.textProblem`).
  public static func name(_ value: String, what: String, limit: Int = 100) throws(ServerError) {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw .badRequest("name-invalid", "the \(what) is empty") }
    guard trimmed == value else { throw .badRequest("name-invalid", "the \(what) '\(value)' starts or ends with a space") }
    guard value.count <= limit else { throw .badRequest("name-invalid", "the \(what) is longer than \(limit) characters") }
    if let problem = ChangeRules.nameProblem(value) { throw .badRequest("name-invalid", "the \(what) \(problem)") }
  }

  /// A batch or replica id: 1–200 characters, no control characters or bidi overrides
  /// (`ChangeRules.identifierProblem`, the rule devices apply to the batches they pull).
  public static func identifier(_ value: String, what: String) throws(ServerError) {
    if let problem = ChangeRules.identifierProblem(value) { throw .badRequest("id-invalid", "the \(what) \(problem)") }
  }
}
