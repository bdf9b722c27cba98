public import Model
import Normalization

/// The rules every user-given name follows.
public enum NameRules {
  /// For each ASCII byte, whether `clean` splits there (whitespace or newline).
  private static let separators: [Bool] = (0..<128).map {
    let character = Character(Unicode.Scalar(UInt8($0)))
    return character.isWhitespace || character.isNewline
  }

  /// Four or more uppercase hex digits, as in U+0000.
  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The longest name accepted, in characters.
  public static let maximumLength = 200

  /// The name trimmed of surrounding whitespace with inner runs collapsed, or an error.
  /// - Throws: ``RepositoryError/emptyName(_:)``, ``RepositoryError/nameTooLong(_:length:maximum:)``.
  public static func clean(_ name: String, for kind: EntityKind) throws(RepositoryError) -> String {
    let ascii = TextFolding.collapsingASCII(name, separators: separators)
    let cleaned = ascii ?? name.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    guard !cleaned.isEmpty else { throw .emptyName(kind) }
    // Control characters (NUL, escape, DEL…) have no place in a name; whitespace ones
    // were collapsed above. In ASCII text they are the bytes below 0x20 and 0x7F (general
    // category Cc), so only other text, or ASCII that holds one, looks up each scalar's
    // category (about 4,000 instructions of every get-or-create).
    if ascii == nil || cleaned.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }),
      let index = cleaned.unicodeScalars.firstIndex(where: { $0.properties.generalCategory == .control })
    {
      let position = cleaned.unicodeScalars.distance(from: cleaned.unicodeScalars.startIndex, to: index) + 1
      let scalar = cleaned.unicodeScalars[index].value
      throw .invalidValue(
        field: "name", value: cleaned.unicodeScalars.map { $0.properties.generalCategory == .control ? "�" : String($0) }.joined(),
        reason: "holds a control character (U+\(Self.hex(scalar))) at character \(position)"
      )
    }
    // A character is at least one byte: counting bytes first spares counting characters.
    guard cleaned.utf8.count <= maximumLength || cleaned.count <= maximumLength else {
      throw .nameTooLong(kind, length: cleaned.count, maximum: maximumLength)
    }
    return cleaned
  }
}
