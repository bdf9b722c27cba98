public import Model

/// The rules every user-given name follows.
public enum NameRules {
  /// The longest name accepted, in characters.
  public static let maximumLength = 200

  /// The name trimmed of surrounding whitespace with inner runs collapsed, or an error.
  /// - Throws: ``RepositoryError/emptyName(_:)``, ``RepositoryError/nameTooLong(_:length:maximum:)``.
  public static func clean(_ name: String, for kind: EntityKind) throws(RepositoryError) -> String {
    let cleaned = name.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    guard !cleaned.isEmpty else { throw .emptyName(kind) }
    guard cleaned.count <= maximumLength else {
      throw .nameTooLong(kind, length: cleaned.count, maximum: maximumLength)
    }
    return cleaned
  }
}
