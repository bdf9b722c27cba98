/// One word of a command line, after quotes and escapes are resolved.
///
/// `quoted` records whether any part of the word was quoted or escaped: a quoted
/// `"--json"` is a value, not an option, and a quoted `"to"` is a name, not a keyword.
public struct Word: Sendable, Hashable {
  /// The word as the command reads it, quotes and escapes resolved.
  public var text: String
  /// Whether any part of the word was quoted or escaped.
  public var quoted: Bool
  /// Whether the first character came from quotes or an escape: `"--x"` is a value,
  /// but `--ingredient="2 leeks"` is an option.
  public var startsQuoted: Bool
  /// Whether the last character came from quotes or an escape: `"Mom's Lasagna":` ends
  /// in a bare colon that opens a block, `"Ratio 2:"` and `Ratio\:` do not.
  public var endsQuoted: Bool
  /// 1-based column of the word's first character on its line.
  public var column: Int

  /// A word of `text`; `startsQuoted` and `endsQuoted` default to `quoted`.
  public init(_ text: String, quoted: Bool = false, startsQuoted: Bool? = nil, endsQuoted: Bool? = nil, column: Int = 1) {
    self.text = text
    self.quoted = quoted
    self.startsQuoted = startsQuoted ?? quoted
    self.endsQuoted = endsQuoted ?? quoted
    self.column = column
  }

  /// Whether the word is an option name (`--cuisine`, `--page=12`) rather than a value.
  var isOption: Bool { !startsQuoted && text.hasPrefix("--") && text.count > 2 }
  /// Whether the word is the bare `--` that ends options.
  var isEndOfOptions: Bool { !quoted && text == "--" }
}
