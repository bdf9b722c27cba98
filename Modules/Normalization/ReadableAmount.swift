/// A summed amount as a cook reads it: a unit chosen for its size, in the reader's
/// system, with kitchen fractions for US and imperial units and short decimals for metric.
///
/// ```swift
/// let part = AmountTotal.sum(texts: ["48 tsp"]).parts[0]
/// part.readable(in: nil).text   // "1 cup"
/// AmountTotal.sum(texts: ["1500 g"]).parts[0].readable(in: nil).text   // "1.5 kg"
/// ```
///
/// The rules (Docs/NORMALIZATION.md §8):
/// - Unit: the largest the amount reaches — US volume in gallons from 1 gallon, cups
///   from ¼ cup, tbsp from 1 tbsp, else tsp; metric volume in l from 1 l, else ml;
///   imperial volume in pints from 1 pint, else fl oz; mass in lb from 1 lb, else oz, or
///   kg from 1 kg, else g; length in cm or inches — skipping a US or imperial unit whose
///   nearest fraction is more than 5 % off (4 ½ tbsp, not ¼ cup).
/// - Numbers: US, imperial and counted units round to the nearest eighth or third
///   (⅛ ¼ ⅓ ⅜ ½ ⅝ ⅔ ¾ ⅞), at most 1/16 off; below 1/16 two significant digits. Metric
///   litres and kilograms keep two decimals, other metric units none from 10 up and one
///   below 10 (two significant digits below 0.1). Trailing zeros are dropped.
/// - The exact value stays in ``Readable/quantity``.
public struct Readable: Hashable, Sendable {
  /// The amount in the shown unit, exactly.
  public var quantity: Rational
  /// The upper end of a range in the shown unit, exactly, else nil.
  public var upperBound: Rational?
  /// The shown unit ("cup", "kg", "clove"), nil for a plain count.
  public var unit: String?
  /// "1 ½ cups", "1.5 kg", "7 cloves", "2 cans (14.5 oz each)", "1-2 l".
  public var text: String
}

extension AmountTotal.Part {
  /// This sum in the unit that reads best, in `system` (nil: the system it was written in).
  public func readable(in system: MeasureSystem?) -> Readable {
    guard let dimension else {
      let written = text(quantity, upperBound, style: .fraction)
      let unitText = unit.map { " " + (quantity > .one || upperBound != nil ? UnitMeasure.plural(of: $0) : $0) } ?? ""
      let each = packageSize.map { " (\(ReadableFormat.single($0.quantity, unit: $0.unit)) each)" } ?? ""
      return Readable(quantity: quantity, upperBound: upperBound, unit: unit, text: written + unitText + each)
    }
    let target = system ?? self.system ?? .metric
    let unit = ReadableFormat.unit(for: quantity, dimension: dimension, system: target)
    let measure = UnitMeasure.of(unit)
    let factor = measure?.baseUnits ?? .one
    let shown = quantity.divided(by: factor) ?? quantity
    let shownUpper = upperBound.flatMap { $0.divided(by: factor) }
    let style: ReadableFormat.Style = measure?.system == .metric ? .decimal(places: ReadableFormat.places(for: unit, shown)) : .fraction
    let unitText = shown > .one || shownUpper != nil ? UnitMeasure.plural(of: unit) : unit
    return Readable(quantity: shown, upperBound: shownUpper, unit: unit, text: text(shown, shownUpper, style: style) + " " + unitText)
  }

  private func text(_ low: Rational, _ high: Rational?, style: ReadableFormat.Style) -> String {
    let lowText = ReadableFormat.number(low, style)
    guard let high else { return lowText }
    return lowText + "-" + ReadableFormat.number(high, style)
  }
}

extension AmountTotal {
  /// Every part readable, joined by " + ", then what could not be read as written and
  /// "(+N without amount)": "1 ½ cups + 200 g", "a handful", "½ tsp (+1 without amount)".
  /// Empty when there is nothing at all.
  public func text(in system: MeasureSystem?) -> String {
    var pieces = parts.map { $0.readable(in: system).text } + unread
    if withoutAmount > 0 {
      let note = "(+\(withoutAmount) without amount)"
      if pieces.isEmpty { return "" }
      pieces[pieces.count - 1] += " " + note
    }
    return pieces.joined(separator: " + ")
  }
}

/// The number and unit rules of ``Readable``.
enum ReadableFormat {
  enum Style: Equatable {
    case fraction
    case decimal(places: Int)
  }

  /// The unit a sum of `baseUnits` reads best in: the largest of its system's units that
  /// it reaches (a ¼ cup at least for cups) and, for fraction units, that the nearest
  /// eighth or third shows within 5 % (4 ½ tbsp, not ¼ cup); else the smallest.
  static func unit(for baseUnits: Rational, dimension: UnitDimension, system: MeasureSystem) -> String {
    let candidates: [(unit: String, minimum: Rational)] =
      switch (dimension, system) {
      case (.volume, .us): [("gallon", .one), ("cup", Rational(1, 4) ?? .one), ("tbsp", .one), ("tsp", .zero)]
      case (.volume, .imperial): [("imp pint", .one), ("imp fl oz", .zero)]
      case (.volume, .metric): [("l", .one), ("ml", .zero)]
      case (.mass, .us), (.mass, .imperial): [("lb", .one), ("oz", .zero)]
      case (.mass, .metric): [("kg", .one), ("g", .zero)]
      case (.length, .metric): [("cm", .zero)]
      case (.length, _): [("inch", .zero)]
      }
    for candidate in candidates {
      guard let measure = UnitMeasure.of(candidate.unit), let value = baseUnits.divided(by: measure.baseUnits), value >= candidate.minimum
      else { continue }
      if measure.system == .metric || readsClosely(value) { return candidate.unit }
    }
    return candidates.last?.unit ?? dimension.baseUnit
  }

  /// Whether the kitchen fraction of `value` is within 5 % of it.
  static func readsClosely(_ value: Rational) -> Bool {
    let exact = value.doubleValue
    guard exact > 0 else { return true }
    return abs(nearestFraction(value).doubleValue - exact) <= 0.05 * exact
  }

  /// Decimal places for a metric amount: two for l and kg, else none from 10 up and one below.
  static func places(for unit: String, _ value: Rational) -> Int {
    if unit == "l" || unit == "kg" { return 2 }
    return value >= Rational(10) ? 0 : 1
  }

  /// One amount as written, without changing its unit: "14.5 oz", "400 g".
  static func single(_ quantity: Rational, unit: String?) -> String {
    let metric = unit.flatMap(UnitMeasure.of)?.system == .metric
    let number = number(quantity, metric ? .decimal(places: places(for: unit ?? "", quantity)) : .fraction)
    return unit.map { number + " " + $0 } ?? number
  }

  static func number(_ value: Rational, _ style: Style) -> String {
    if value < Rational(lowestTerms: 1, 10) && value > .zero, case .decimal = style { return significant(value.doubleValue) }
    switch style {
    case .fraction: return fraction(value)
    case .decimal(let places): return decimal(value.doubleValue, places: places)
    }
  }

  /// Kitchen fractions: the nearest eighth or third.
  static func fraction(_ value: Rational) -> String {
    if value < Rational(lowestTerms: 1, 16) && value > .zero { return significant(value.doubleValue) }
    let rounded = nearestFraction(value)
    let whole = rounded.floor
    let rest = rounded.subtracting(Rational(whole, 1) ?? .zero) ?? .zero
    let glyph = fractions.first { $0.value == rest }?.glyph ?? ""
    switch (whole, glyph) {
    case (0, ""): return "0"
    case (0, let glyph): return glyph
    case (let whole, ""): return "\(whole)"
    case (let whole, let glyph): return "\(whole) \(glyph)"
    }
  }

  /// The whole number plus the eighth or third nearest to `value`.
  static func nearestFraction(_ value: Rational) -> Rational {
    let whole = value.floor
    let rest = value.subtracting(Rational(whole, 1) ?? .zero) ?? .zero
    var best = fractions[0]
    for candidate in fractions where distance(rest, candidate.value) < distance(rest, best.value) { best = candidate }
    return (Rational(whole, 1) ?? .zero).adding(best.value) ?? value
  }

  private static let fractions: [(value: Rational, glyph: String)] = [
    (.zero, ""), (Rational(lowestTerms: 1, 8), "⅛"), (Rational(lowestTerms: 1, 4), "¼"), (Rational(lowestTerms: 1, 3), "⅓"),
    (Rational(lowestTerms: 3, 8), "⅜"),
    (Rational(lowestTerms: 1, 2), "½"), (Rational(lowestTerms: 5, 8), "⅝"), (Rational(lowestTerms: 2, 3), "⅔"),
    (Rational(lowestTerms: 3, 4), "¾"), (Rational(lowestTerms: 7, 8), "⅞"),
    (.one, ""),
  ]

  private static func distance(_ a: Rational, _ b: Rational) -> Double { abs(a.doubleValue - b.doubleValue) }

  /// `value` with at most `places` decimals, trailing zeros dropped: 1.50 → "1.5".
  static func decimal(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    if rounded == rounded.rounded() { return String(Int64(rounded)) }
    var text = String(rounded)
    if text.contains("e") { return text }
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }

  /// Two significant digits: 0.0416 → "0.042".
  static func significant(_ value: Double) -> String {
    var places = 1
    var probe = value
    while probe < 1, places < 12 {
      probe *= 10
      places += 1
    }
    return decimal(value, places: places)
  }
}
