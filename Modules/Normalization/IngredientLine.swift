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

  /// The size of each package, when the line gives one: 14.5 oz in "2 (14.5-ounce) cans
  /// diced tomatoes", 400 g in "2 x 400 g tins chopped tomatoes" and "two 400g tins", 120 g
  /// in "3 x 120 g cod fillets". Its text is in `notes` too.
  public var packageSize: Amount?
  /// The same amount in another unit: 240 ml in "1 cup / 240 ml stock", 7 oz in
  /// "200g/7oz butter", 45 g in "3 tablespoons (45 g) butter". Its text is in `notes` too.
  public var equivalent: Amount?
  /// An alternative the line offers, folded: "1 tbsp oil" in "2 tbsp butter or 1 tbsp
  /// oil". `notes` holds it as "or 1 tbsp oil".
  public var alternative: String?

  /// A quantity (or range) and its unit.
  public struct Amount: Hashable, Sendable {
    /// The quantity, or the lower end of a range.
    public var quantity: Double
    /// The upper end of a range ("1-2 cups"), else nil.
    public var upperBound: Double?
    /// The canonical unit, as `IngredientLine.unit`.
    public var unit: String?

    /// An amount of `quantity` (up to `upperBound`) `unit`.
    public init(quantity: Double, upperBound: Double? = nil, unit: String?) {
      self.quantity = quantity
      self.upperBound = upperBound
      self.unit = unit
    }
  }

  /// A line from its parts, as `parse(_:)` would read them.
  public init(
    quantity: Double?, quantityUpperBound: Double?, unit: String?, name: String,
    canonicalName: String, notes: String?, packageSize: Amount? = nil, equivalent: Amount? = nil,
    alternative: String? = nil
  ) {
    self.quantity = quantity
    self.quantityUpperBound = quantityUpperBound
    self.unit = unit
    self.name = name
    self.canonicalName = canonicalName
    self.notes = notes
    self.packageSize = packageSize
    self.equivalent = equivalent
    self.alternative = alternative
  }

  /// Parses one ingredient line. Total: never fails; an empty line gives name "",
  /// canonicalName "" and everything else nil. When it cannot read an amount it leaves
  /// the quantity empty; a number or unit never ends up in the name.
  ///
  /// ```swift
  /// IngredientLine.parse("1 (14 oz) can tomatoes, drained")
  /// // quantity 1, unit "can", name "tomatoes", notes "14 oz; drained", packageSize 14 oz
  /// ```
  public static func parse(_ line: String) -> IngredientLine {
    var grammar = LineGrammar(line)
    return grammar.parse()
  }
}
