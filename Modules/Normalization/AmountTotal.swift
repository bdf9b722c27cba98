/// An amount read exactly: a quantity (or range), a canonical unit, and the size of each
/// package when the amount counts packages ("2 (14.5 oz) cans").
///
/// ```swift
/// ExactAmount.parse("1 ½ cups")   // 3/2, "cup"
/// ExactAmount.parse("2 (14.5-ounce) cans")   // 2, "can", each 29/2 "oz"
/// ExactAmount.parse("a handful")   // nil: no number to read
/// ```
public struct ExactAmount: Hashable, Sendable {
  /// The quantity, or the lower end of a range.
  public var quantity: Rational
  /// The upper end of a range ("1-2 l"), else nil.
  public var upperBound: Rational?
  /// A canonical unit as `IngredientLine.unit` gives it, or nil for a plain count ("3").
  public var unit: String?
  /// The size of one package, when `unit` counts packages.
  public var packageSize: Size?

  /// A quantity with its unit, for the size of one package.
  public struct Size: Hashable, Sendable {
    /// The quantity of one package.
    public var quantity: Rational
    /// The canonical unit of the package size, or nil for a plain count.
    public var unit: String?

    /// A package size of `quantity` `unit`.
    public init(quantity: Rational, unit: String?) {
      self.quantity = quantity
      self.unit = unit
    }
  }

  /// An amount from its parts, as `parse(_:)` would read them.
  public init(quantity: Rational, upperBound: Rational? = nil, unit: String? = nil, packageSize: Size? = nil) {
    self.quantity = quantity
    self.upperBound = upperBound
    self.unit = unit
    self.packageSize = packageSize
  }

  /// Reads an amount as a list item stores it ("2", "1 l", "0.5 cup", "1-2 l (cold)",
  /// "2 (14.5 oz) can") with the ingredient-line grammar; notes in it are ignored. Nil
  /// when the text holds more than an amount or no number ("a handful", "some").
  public static func parse(_ text: String) -> ExactAmount? {
    // The grammar reads amounts in front of a name: give it one it cannot mistake.
    let line = IngredientLine.parse(text + " " + sentinel)
    guard line.name == sentinel, let quantity = line.quantity, let exact = Rational(approximating: quantity) else { return nil }
    let size = line.packageSize.flatMap { size in
      Rational(approximating: size.quantity).map { Size(quantity: $0, unit: size.unit) }
    }
    return ExactAmount(
      quantity: exact, upperBound: line.quantityUpperBound.flatMap { Rational(approximating: $0) }, unit: line.unit,
      packageSize: size)
  }

  private static let sentinel = "water"
}

/// The amounts of one ingredient added up: what a shopping list shows on one line.
///
/// Amounts of one dimension (volume, mass, length) add up whatever their units and
/// systems, exactly (``Rational``), in the dimension's base unit: 2 cups + 1 l + 500 ml of
/// milk is one volume. Counts add up by unit (4 cloves + 3 cloves = 7 cloves; "2 eggs" +
/// "6 eggs" = 8), packages by unit and package size. Volume and mass of one ingredient
/// combine only through a density (grams per US cup), into mass; without one they stay
/// side by side. Amounts that cannot be read and items without an amount are counted,
/// never dropped.
///
/// ```swift
/// let milk = AmountTotal.sum(texts: ["2 cups", "1 l", "500 ml"])
/// milk.parts.count   // 1: volume, 473176473/250000 ml
/// milk.parts[0].text(in: .metric)   // "1.97 l"
/// ```
public struct AmountTotal: Hashable, Sendable {
  /// One summed amount: a measure in its dimension's base unit, or a count of a unit.
  public struct Part: Hashable, Sendable {
    /// The sum: base units (ml, g, cm) for a measure, else a count of `unit`.
    public var quantity: Rational
    /// The sum of the upper ends, when any amount was a range.
    public var upperBound: Rational?
    /// The base unit for a measure ("ml", "g", "cm"); the counted unit otherwise
    /// ("clove", "pinch"), nil for plain counts ("8" eggs).
    public var unit: String?
    /// Set for a measure: what it measures, and the system of the first amount summed
    /// (shown in that system unless the reader prefers another).
    public var dimension: UnitDimension?
    /// The measure system of the first amount summed, for a measure; nil for a count.
    public var system: MeasureSystem?
    /// The size of each package, for counted packages.
    public var packageSize: ExactAmount.Size?
  }

  /// The summed amounts: one per dimension, counted unit or package size.
  public var parts: [Part] = []
  /// Amounts written in a way that could not be read ("a handful"), as written.
  public var unread: [String] = []
  /// Items that had no amount at all ("salt").
  public var withoutAmount = 0

  /// An empty total: no parts, nothing unread, no item without an amount.
  public init() {}

  /// Sums list items' quantity texts (nil for an item without one); see
  /// ``sum(_:unread:withoutAmount:gramsPerCup:)``.
  public static func sum(texts: [String?], gramsPerCup: Rational? = nil) -> AmountTotal {
    var amounts: [ExactAmount] = []
    var unread: [String] = []
    var withoutAmount = 0
    for text in texts {
      guard let text, !text.allSatisfy(\.isWhitespace) else {
        withoutAmount += 1
        continue
      }
      if let amount = ExactAmount.parse(text) { amounts.append(amount) } else { unread.append(text) }
    }
    return sum(amounts, unread: unread, withoutAmount: withoutAmount, gramsPerCup: gramsPerCup)
  }

  /// Sums amounts of one ingredient.
  /// - Parameters:
  ///   - amounts: the amounts read.
  ///   - unread: amount texts that could not be read, kept in ``unread``.
  ///   - withoutAmount: how many items had no amount, kept in ``withoutAmount``.
  ///   - gramsPerCup: the ingredient's density; when given, volume and mass combine into
  ///     one mass.
  public static func sum(_ amounts: [ExactAmount], unread: [String] = [], withoutAmount: Int = 0, gramsPerCup: Rational? = nil)
    -> AmountTotal
  {
    var total = AmountTotal()
    total.unread = unread
    total.withoutAmount = withoutAmount
    for amount in amounts { total.add(amount) }
    if let gramsPerCup { total.combineVolumeIntoMass(gramsPerCup: gramsPerCup) }
    return total
  }

  private mutating func add(_ amount: ExactAmount) {
    let measure = amount.unit.flatMap(UnitMeasure.of)
    var part: Part
    if let measure, let low = amount.quantity.multiplied(by: measure.baseUnits) {
      part = Part(
        quantity: low, upperBound: amount.upperBound.flatMap { $0.multiplied(by: measure.baseUnits) },
        unit: measure.dimension.baseUnit, dimension: measure.dimension, system: measure.system)
    } else {
      part = Part(quantity: amount.quantity, upperBound: amount.upperBound, unit: amount.unit, packageSize: amount.packageSize)
    }
    guard let index = parts.firstIndex(where: { $0.sumsWith(part) }), let merged = parts[index].adding(part) else {
      parts.append(part)
      return
    }
    parts[index] = merged
  }

  private mutating func combineVolumeIntoMass(gramsPerCup: Rational) {
    guard let volume = parts.firstIndex(where: { $0.dimension == .volume }), parts.contains(where: { $0.dimension == .mass }),
      let perMillilitre = gramsPerCup.divided(by: Measures.usCup)
    else { return }
    let source = parts[volume]
    guard let grams = source.quantity.multiplied(by: perMillilitre) else { return }
    let asMass = Part(
      quantity: grams, upperBound: source.upperBound.flatMap { $0.multiplied(by: perMillilitre) }, unit: "g", dimension: .mass,
      system: source.system)
    guard let mass = parts.firstIndex(where: { $0.dimension == .mass }), let merged = parts[mass].adding(asMass) else { return }
    parts[mass] = merged
    parts.remove(at: volume)
  }
}

extension AmountTotal.Part {
  func sumsWith(_ other: Self) -> Bool {
    if let dimension { return dimension == other.dimension }
    return other.dimension == nil && unit == other.unit && packageSize == other.packageSize
  }

  /// The two sums added; a range on either side makes a range (the other side's upper
  /// end is its quantity). Nil when a sum does not fit.
  func adding(_ other: Self) -> Self? {
    guard let low = quantity.adding(other.quantity) else { return nil }
    var result = self
    result.quantity = low
    if upperBound != nil || other.upperBound != nil {
      guard let high = (upperBound ?? quantity).adding(other.upperBound ?? other.quantity) else { return nil }
      result.upperBound = high
    }
    return result
  }
}
