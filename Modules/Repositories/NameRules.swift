public import Model
import Normalization

/// The rules every user-given name follows.
public enum NameRules {
  /// For each ASCII byte, whether `clean` splits there (whitespace or newline).
  private static let separators: [Bool] = (0..<128).map {
    let character = Character(Unicode.Scalar(UInt8($0)))
    return character.isWhitespace || character.isNewline
  }

  /// The longest name accepted, in characters.
  public static let maximumLength = ValueRules.TextRule.name.maximumCharacters

  /// The name trimmed of surrounding whitespace with inner runs collapsed, or an error.
  /// - Throws: ``RepositoryError/emptyName(_:)``, ``RepositoryError/nameTooLong(_:length:maximum:)``.
  public static func clean(_ name: String, for kind: EntityKind) throws(RepositoryError) -> String {
    let ascii = TextFolding.collapsingASCII(name, separators: separators)
    let cleaned = ascii ?? name.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    guard !cleaned.isEmpty else { throw .emptyName(kind) }
    // Control characters (NUL, escape, DEL…) and bidi overrides have no place in a name;
    // whitespace ones were collapsed above. The rule is the one every store and sync
    // applies (``ValueRules``).
    if let (position, scalar) = ValueRules.firstForbidden(in: cleaned, allowingLineBreaks: false) {
      throw .invalidValue(
        field: "name",
        value: cleaned.unicodeScalars.map { ValueRules.isForbidden($0, allowingLineBreaks: false) ? "�" : String($0) }.joined(),
        reason: "holds \(ValueRules.describe(scalar)) at character \(position)"
      )
    }
    // A character is at least one byte: counting bytes first spares counting characters.
    guard cleaned.utf8.count <= maximumLength || cleaned.count <= maximumLength else {
      throw .nameTooLong(kind, length: cleaned.count, maximum: maximumLength)
    }
    let bytes = cleaned.utf8.count
    guard bytes <= ValueRules.TextRule.name.maximumBytes else {
      throw .invalidValue(
        field: "name", value: String(cleaned.prefix(40)) + "…",
        reason: "is \(bytes) bytes long; the limit is \(ValueRules.TextRule.name.maximumBytes)")
    }
    return cleaned
  }
}
