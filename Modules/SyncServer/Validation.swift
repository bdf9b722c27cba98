import Foundation

/// Checks of names and identifiers, at the door: every refusal says which value and why.
/// Quotes, semicolons and SQL words are ordinary characters here; storage binds values.
public enum Validation {
  /// A household or device name: not empty, at most `limit` characters, no control characters.
  public static func name(_ value: String, what: String, limit: Int = 100) throws(ServerError) {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw .badRequest("name-invalid", "the \(what) is empty") }
    guard trimmed == value else { throw .badRequest("name-invalid", "the \(what) '\(value)' starts or ends with a space") }
    guard value.count <= limit else { throw .badRequest("name-invalid", "the \(what) is longer than \(limit) characters") }
    guard !holdsControlCharacter(value) else {
      throw .badRequest("name-invalid", "the \(what) holds a control character")
    }
  }

  /// A batch or replica id: 1–200 characters, no control characters.
  public static func identifier(_ value: String, what: String) throws(ServerError) {
    guard !value.isEmpty, value.utf8.count <= 200 else { throw .badRequest("id-invalid", "the \(what) must be 1 to 200 bytes long") }
    guard !holdsControlCharacter(value) else {
      throw .badRequest("id-invalid", "the \(what) holds a control character")
    }
  }

  /// Whether `value` holds a control character (general category Cc). ASCII text — every
  /// id Forager makes — is read by its bytes, other text by its scalars' properties.
  static func holdsControlCharacter(_ value: String) -> Bool {
    if value.utf8.allSatisfy({ $0 < 0x80 }) { return value.utf8.contains { $0 < 0x20 || $0 == 0x7F } }
    return value.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }
}
