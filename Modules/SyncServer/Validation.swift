import Foundation
import Sync

/// Checks of names and identifiers, at the door: every refusal says which value and why.
/// Quotes, semicolons and SQL words are ordinary characters here; storage binds values.
///
/// Besides the devices' rules these bound what reaches the database: a name or id is
/// bounded in bytes as well as characters (a character can be many bytes, and PostgreSQL
/// refuses an index entry past about 2,700 bytes), and a schema version fits its column.
public enum Validation {
  /// The most UTF-8 bytes a batch or replica id may have: the devices' bound
  /// (`ChangeRules.maximumIdentifierBytes`, 800), well inside PostgreSQL's btree entry limit
  /// (2,704 bytes) for the indexes on batch ids and replicas.
  public static let maximumIdentifierBytes = ChangeRules.maximumIdentifierBytes
  /// The most UTF-8 bytes a household or device name may have, per character of its limit:
  /// a name of `limit` characters may have `4 × limit` bytes (400 for the default 100).
  public static let bytesPerNameCharacter = 4
  /// The schema versions a batch or a device registration may carry (a column of 32 bits
  /// holds them; no schema comes near the end).
  public static let schemaVersions = 1...10_000

  /// A household or device name: not empty, at most `limit` characters and `4 × limit`
  /// bytes, no control characters or bidi overrides (the devices' rule for names,
  /// `ChangeRules.textProblem`).
  public static func name(_ value: String, what: String, limit: Int = 100) throws(ServerError) {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw .badRequest("name-invalid", "the \(what) is empty") }
    guard trimmed == value else { throw .badRequest("name-invalid", "the \(what) '\(value)' starts or ends with a space") }
    let bytes = value.utf8.count
    guard bytes <= limit * bytesPerNameCharacter else {
      throw .badRequest("name-invalid", "the \(what) is \(bytes) bytes long; the limit is \(limit * bytesPerNameCharacter)")
    }
    guard value.count <= limit else { throw .badRequest("name-invalid", "the \(what) is longer than \(limit) characters") }
    if let problem = ChangeRules.nameProblem(value) { throw .badRequest("name-invalid", "the \(what) \(problem)") }
  }

  /// A batch or replica id: 1–200 characters, at most ``maximumIdentifierBytes`` bytes, no
  /// control characters or bidi overrides (`ChangeRules.identifierProblem`, the rule devices
  /// apply to the batches they pull).
  public static func identifier(_ value: String, what: String) throws(ServerError) {
    let bytes = value.utf8.count
    guard bytes <= maximumIdentifierBytes else {
      throw .badRequest("id-invalid", "the \(what) is \(bytes) bytes long; the limit is \(maximumIdentifierBytes)")
    }
    if let problem = ChangeRules.identifierProblem(value) { throw .badRequest("id-invalid", "the \(what) \(problem)") }
  }
}
