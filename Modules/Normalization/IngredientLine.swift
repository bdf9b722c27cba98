/// One recipe ingredient line, split into quantity, unit, name and notes.
///
/// ```swift
/// let line = IngredientLine.parse("2 ½ cups diced tomatoes (about 3)")
/// // quantity 2.5, unit "cup", name "tomatoes", canonicalName "tomato", notes "diced; about 3"
/// ```
///
/// The grammar, the unit table and the note words are in `Docs/NORMALIZATION.md`.
public struct IngredientLine: Hashable, Sendable {
  /// The amount, or the lower bound of a range: "2 ½" → 2.5, "1 1/2" → 1.5, "¾" → 0.75,
  /// "0.5" → 0.5, "2-3" / "2 to 3" / "2–3" → 2. Nil when the line has none ("salt").
  public var quantity: Double?
  /// The upper bound of a range (3 in "2-3"), else nil.
  public var quantityUpperBound: Double?
  /// The canonical unit ("cup", "tbsp", "g", "clove", …), or nil ("3 eggs").
  public var unit: String?
  /// The ingredient as written, folded like `SemanticKey.normalizedName`, without quantity,
  /// unit and notes: "tomatoes".
  public var name: String
  /// `SemanticKey.canonicalIngredientName(name)`: "tomato".
  public var canonicalName: String
  /// Preparation and size words, parentheticals, text after a comma and trailing phrases
  /// such as "to taste", in the order they appear, joined by "; ". Nil when there are none.
  public var notes: String?

  public init(
    quantity: Double?, quantityUpperBound: Double?, unit: String?, name: String,
    canonicalName: String, notes: String?
  ) {
    self.quantity = quantity
    self.quantityUpperBound = quantityUpperBound
    self.unit = unit
    self.name = name
    self.canonicalName = canonicalName
    self.notes = notes
  }

  /// Parses one ingredient line. Total: never fails; an empty line gives name "",
  /// canonicalName "" and everything else nil.
  ///
  /// ```swift
  /// IngredientLine.parse("1 (14 oz) can tomatoes, drained")
  /// // quantity 1, unit "can", name "tomatoes", notes "14 oz; drained"
  /// ```
  public static func parse(_ line: String) -> IngredientLine {
    if var parser = IngredientLineParser<ASCIIByte>(ascii: line) { return parser.parse() }
    return parseCharacters(line)
  }

  /// `parse` through the `Character` scanner whatever the line: the path every non-ASCII
  /// line takes, for tests that check the byte scanner of ASCII lines against it.
  package static func parseCharacters(_ line: String) -> IngredientLine {
    var parser = IngredientLineParser<Character>(line)
    return parser.parse()
  }
}
