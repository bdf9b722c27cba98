import Normalization
import Testing

/// The exact unit table: legal factors, exact ratios, imperial where it differs.
@Suite("Unit measures")
struct UnitMeasureTests {
  private func ratio(_ unit: String, _ other: String) -> Rational? {
    guard let a = UnitMeasure.of(unit), let b = UnitMeasure.of(other) else { return nil }
    return a.baseUnits.divided(by: b.baseUnits)
  }

  @Test func usCupIsTheLegalCupNotFoundationsMetricCup() {
    #expect(UnitMeasure.of("cup")?.baseUnits == Rational(2_365_882_365, 10_000_000))
    #expect(UnitMeasure.of("cup")?.baseUnits != Rational(240))
  }

  @Test func spoonsAndCupsAreExactMultiplesOfTheTeaspoon() {
    #expect(ratio("tbsp", "tsp") == Rational(3))
    #expect(ratio("cup", "tbsp") == Rational(16))
    #expect(ratio("cup", "fl oz") == Rational(8))
    #expect(ratio("gallon", "cup") == Rational(16))
    #expect(ratio("quart", "pint") == Rational(2))
  }

  @Test func fluidOunceAndMassesHaveTheirLegalValues() {
    #expect(UnitMeasure.of("fl oz")?.baseUnits == Rational(295_735_295_625, 10_000_000_000))
    #expect(UnitMeasure.of("oz")?.baseUnits == Rational(28_349_523_125, 1_000_000_000))
    #expect(UnitMeasure.of("lb")?.baseUnits == Rational(45_359_237, 100_000))
    #expect(ratio("lb", "oz") == Rational(16))
    #expect(ratio("kg", "mg") == Rational(1_000_000))
    #expect(ratio("l", "cl") == Rational(100))
  }

  @Test func imperialUnitsDifferFromUSOnes() {
    #expect(UnitMeasure.of("imp fl oz")?.baseUnits == Rational(284_130_625, 10_000_000))
    #expect(UnitMeasure.of("imp gallon")?.baseUnits == Rational(454_609, 100))
    #expect(ratio("imp pint", "imp fl oz") == Rational(20))
    #expect(UnitMeasure.of("imp pint")?.system == .imperial)
    #expect(ratio("imp pint", "pint") != Rational(1))
    #expect(IngredientLine.parse("1 imperial pint milk").unit == "imp pint")
    #expect(IngredientLine.parse("2 imp fl oz cream").unit == "imp fl oz")
    #expect(IngredientLine.parse("2 imp fl oz cream").name == "cream")
  }

  @Test func countsAndSizelessMeasuresDoNotConvert() {
    for unit in ["clove", "can", "head", "bunch", "piece", "pinch", "handful"] {
      #expect(UnitMeasure.of(unit) == nil, "\(unit)")
    }
  }

  @Test func everyMeasureIsPositive() {
    for dimension in UnitDimension.allCases {
      #expect(UnitMeasure.of(dimension.baseUnit)?.baseUnits == .one)
    }
    for unit in [
      "cup", "tbsp", "tsp", "fl oz", "pint", "quart", "gallon", "oz", "lb", "mg", "g", "kg", "ml", "cl", "dl", "l", "cm", "inch",
    ] {
      #expect((UnitMeasure.of(unit)?.baseUnits ?? .zero) > .zero, "\(unit)")
    }
  }

  @Test func pluralsOfCountsAndInvariantAbbreviations() {
    #expect(UnitMeasure.plural(of: "clove") == "cloves")
    #expect(UnitMeasure.plural(of: "bunch") == "bunches")
    #expect(UnitMeasure.plural(of: "loaf") == "loaves")
    #expect(UnitMeasure.plural(of: "cup") == "cups")
    #expect(UnitMeasure.plural(of: "tbsp") == "tbsp")
    #expect(UnitMeasure.plural(of: "g") == "g")
    #expect(UnitMeasure.plural(of: "dozen") == "dozen")
  }
}

/// Exact fractions.
@Suite("Rational")
struct RationalTests {
  @Test func thirdsAddUpExactly() {
    let third = Rational(1, 3)
    #expect(third?.adding(Rational(2, 3) ?? .zero) == .one)
    #expect(Rational(approximating: 1.0 / 3.0) == third)
  }

  @Test func approximationKeepsWrittenDecimals() {
    #expect(Rational(approximating: 14.5) == Rational(29, 2))
    #expect(Rational(approximating: 0.1) == Rational(1, 10))
    #expect(Rational(approximating: 236.5882365) == Rational(473_176_473, 2_000_000))
    #expect(Rational(approximating: 1e-5) == Rational(1, 100_000))
    #expect(Rational(approximating: .infinity) == nil)
    #expect(Rational(approximating: .nan) == nil)
  }

  @Test func lowestTermsAndSign() {
    #expect(Rational(4, -8)?.description == "-1/2")
    #expect(Rational(6, 3)?.description == "2")
    #expect(Rational(1, 0) == nil)
  }

  @Test func overflowIsReportedNotTrapped() {
    let huge = Rational(Int128.max, 1)
    #expect(huge?.adding(.one) == nil)
    #expect(huge?.multiplied(by: Rational(2)) == nil)
    #expect(Rational(1, 3)?.divided(by: .zero) == nil)
  }
}
