/// Adds two amounts written in units of one kind ("1 cup plus 2 tablespoons" = 1.125 cup),
/// for the added-amount rule of an ingredient line. Only units of one dimension and one
/// system (`UnitTable`'s measures): US volume, imperial volume, metric volume, metric
/// mass, US mass, length. Anything else is not added.
enum UnitSums {
  /// `first` in `firstUnit` plus `second` in `secondUnit`, in `firstUnit`; nil when the
  /// two units are not of one dimension and system.
  static func add(_ first: Double, _ firstUnit: String, _ second: Double, _ secondUnit: String) -> Double? {
    if firstUnit == secondUnit { return first + second }
    guard let a = UnitMeasure.of(firstUnit), let b = UnitMeasure.of(secondUnit), a.dimension == b.dimension, a.system == b.system,
      let ratio = b.baseUnits.divided(by: a.baseUnits)
    else { return nil }
    return first + second * ratio.doubleValue
  }
}
