/// What a unit measures.
public enum UnitDimension: String, Sendable, Hashable, CaseIterable {
  /// Volume, mass, or length.
  case volume, mass, length

  /// The unit sums of this dimension are kept in: millilitres, grams, centimetres.
  public var baseUnit: String {
    switch self {
    case .volume: "ml"
    case .mass: "g"
    case .length: "cm"
    }
  }
}

/// The system a unit belongs to. Imperial covers the British fluid ounce, pint, quart
/// and gallon, which are larger than the US ones of the same name.
public enum MeasureSystem: String, Sendable, Hashable, CaseIterable {
  /// US customary, British imperial, or metric.
  case us, imperial, metric
}

/// A unit that converts: its dimension, its system and its exact size in the
/// dimension's base unit (ml, g, cm).
///
/// ```swift
/// UnitMeasure.of("cup")?.baseUnits   // 473176473/2000000 (236.5882365 ml)
/// UnitMeasure.of("tbsp")?.baseUnits == UnitMeasure.of("tsp")?.baseUnits.times(3)   // true
/// UnitMeasure.of("clove")   // nil: a count
/// ```
///
/// The factors are the legal definitions (Docs/NORMALIZATION.md §8): 1 lb = 453.59237 g,
/// 1 US cup = ½ US pint = 236.5882365 ml, 1 tbsp = 3 tsp, 1 imperial fl oz = 28.4130625 ml.
public struct UnitMeasure: Sendable, Hashable {
  /// What the unit measures: volume, mass or length.
  public let dimension: UnitDimension
  /// The system the unit belongs to: metric, US or imperial.
  public let system: MeasureSystem
  /// One of this unit in the dimension's ``UnitDimension/baseUnit``, exactly.
  public let baseUnits: Rational

  init(_ dimension: UnitDimension, _ system: MeasureSystem, _ baseUnits: Rational) {
    self.dimension = dimension
    self.system = system
    self.baseUnits = baseUnits
  }

  /// The measure of a canonical unit ("cup", "g", "imp pint", as `IngredientLine.unit`
  /// gives them); nil for counts ("clove"), measures of no fixed size ("pinch") and
  /// unknown units.
  public static func of(_ unit: String) -> UnitMeasure? { UnitTable.byCanonical[unit]?.measure }

  /// How a count or size-less unit reads for several: "cloves", "bunches", "loaves";
  /// abbreviations ("tbsp", "g", "fl oz") and "dozen" read the same for any number.
  public static func plural(of unit: String) -> String {
    guard let entry = UnitTable.byCanonical[unit], !Measures.invariantPlurals.contains(unit) else { return unit }
    let stem = unit.dropLast()
    return entry.spellings.first { $0 != unit && $0.count > unit.count && $0.hasPrefix(stem) } ?? unit
  }
}

extension Rational {
  /// `self × factor` for the small exact factors of the unit table (cannot overflow there).
  func times(_ factor: Int) -> Rational { multiplied(by: Rational(factor)) ?? self }
}

/// The exact sizes the unit table is built from.
enum Measures {
  static func exact(_ numerator: Int128, _ denominator: Int128 = 1) -> Rational { Rational(numerator, denominator) ?? .zero }

  /// 236.5882365 ml (½ US liquid pint of 231 cubic inches ÷ 8, at 16.387064 ml per cubic inch).
  static let usCup = exact(2_365_882_365, 10_000_000)
  static let usTeaspoon = exact(2_365_882_365, 480_000_000)
  static let usFluidOunce = exact(2_365_882_365, 80_000_000)
  /// 28.4130625 ml (the imperial gallon of 4.54609 l ÷ 160).
  static let imperialFluidOunce = exact(284_130_625, 10_000_000)
  /// 28.349523125 g (the international avoirdupois pound ÷ 16).
  static let ounce = exact(28_349_523_125, 1_000_000_000)
  /// 453.59237 g (the international avoirdupois pound).
  static let pound = exact(45_359_237, 100_000)

  /// Units written the same for one or many.
  static let invariantPlurals: Set<String> = [
    "tbsp", "tsp", "fl oz", "oz", "lb", "mg", "g", "kg", "ml", "cl", "dl", "l", "cm", "dozen",
    "imp fl oz",
  ]
}
