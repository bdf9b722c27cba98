/// LIKE patterns that match text literally.
enum LikePattern {
  /// The escape character the patterns use (`LIKE ? ESCAPE '\'`).
  static let escape: Character = "\\"

  /// A pattern for text that starts with `prefix`: its `%`, `_` and `\` escaped, then `%`.
  /// Starting with literal text, it lets SQLite scan a range of an index that ignores
  /// ASCII case instead of every row.
  static func prefix(_ prefix: String) -> String {
    var pattern = ""
    for character in prefix {
      if character == "%" || character == "_" || character == escape { pattern.append(escape) }
      pattern.append(character)
    }
    return pattern + "%"
  }
}
