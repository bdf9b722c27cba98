/// Adds two amounts written in units of one kind ("1 cup plus 2 tablespoons" = 1.125 cup),
/// for the added-amount rule of an ingredient line. Only units that convert exactly by a
/// fixed ratio within one system: US volume (in teaspoons), metric volume (ml), metric
/// mass (g), US mass (oz). Anything else is not added.
enum UnitSums {
  private static let factors: [String: (system: Int, factor: Double)] = [
    "tsp": (0, 1), "tbsp": (0, 3), "fl oz": (0, 6), "cup": (0, 48), "pint": (0, 96), "quart": (0, 192), "gallon": (0, 768),
    "ml": (1, 1), "cl": (1, 10), "dl": (1, 100), "l": (1, 1000),
    "mg": (2, 0.001), "g": (2, 1), "kg": (2, 1000),
    "oz": (3, 1), "lb": (3, 16),
  ]

  /// `first` in `firstUnit` plus `second` in `secondUnit`, in `firstUnit`; nil when the
  /// two units are not of one system above.
  static func add(_ first: Double, _ firstUnit: String, _ second: Double, _ secondUnit: String) -> Double? {
    if firstUnit == secondUnit { return first + second }
    guard let a = factors[firstUnit], let b = factors[secondUnit], a.system == b.system else { return nil }
    return first + second * b.factor / a.factor
  }
}
