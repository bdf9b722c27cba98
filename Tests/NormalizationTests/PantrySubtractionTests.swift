import Normalization
import Testing

/// What a list needs once the pantry's amount is taken off (`AmountTotal.subtracting`).
@Suite struct PantrySubtractionTests {
  private func left(_ needed: [String?], _ onHand: String, gramsPerCup: Rational? = nil) throws -> PantrySubtraction {
    AmountTotal.sum(texts: needed).subtracting(onHand: try #require(ExactAmount.parse(onHand)), gramsPerCup: gramsPerCup)
  }

  @Test func sevenHundredFiftyGramsLessFiveHundredOnHandLeavesTwoHundredFifty() throws {
    let result = try left(["750 g"], "500 g")
    #expect(result.isComparable && !result.isCovered)
    #expect(result.remaining.text(in: nil) == "250 g")
  }

  @Test func unitsOfOneDimensionCompareAcrossSystems() throws {
    #expect(try left(["1 kg"], "1 lb").remaining.parts.first?.quantity == Rational(54_640_763, 100_000))  // 1000 − 453.59237 g
    #expect(try left(["2 cups"], "1 l").isCovered)
    #expect(try left(["1 l"], "2 cups").remaining.parts.first?.quantity == Rational(526_823_527, 1_000_000))
  }

  @Test func massOnHandCountsAgainstVolumeNeededThroughTheDensity() throws {
    // Flour at 120 g a cup: 240 g on hand covers 1 cup of the 3.
    let result = try left(["3 cups"], "240 g", gramsPerCup: Rational(120))
    #expect(result.remaining.text(in: .us) == "1 cup")
    #expect(!(try left(["3 cups"], "240 g")).isComparable, "without a density, mass and volume do not compare")
  }

  @Test func countsCompareByUnitAndDozensAreTwelve() throws {
    #expect(try left(["3", "2"], "1 dozen").isCovered)
    #expect(try left(["15"], "1 dozen").remaining.text(in: nil) == "3")
    #expect(try left(["4 cloves"], "3 cloves").remaining.text(in: nil) == "1 clove")
    #expect(!(try left(["4 cloves"], "1 head")).isComparable)
  }

  @Test func anIncomparableAmountLeavesTheTotalWhole() throws {
    let result = try left(["2 cups"], "3")
    #expect(!result.isComparable && !result.isCovered)
    #expect(result.remaining == AmountTotal.sum(texts: ["2 cups"]))
  }

  @Test func itemsWithoutAmountAreNeverCovered() throws {
    let result = try left(["500 g", nil], "1 kg")
    #expect(result.isComparable && !result.isCovered)
    #expect(result.remaining.withoutAmount == 1 && result.remaining.parts.isEmpty)
  }

  /// Packages whose size is a measure compare with that measure from either side: what a
  /// list needs against the pantry, and what cooking takes out of it.
  @Test func aMeasureComparesWithPackagesOfThatMeasureBothWays() throws {
    #expect(try left(["400 g"], "2 (400 g) cans").isCovered)
    let cans = try left(["2 (400 g) cans"], "400 g")
    #expect(cans.isComparable && cans.remaining.text(in: nil) == "1 can (400 g each)", "\(cans.remaining.text(in: nil))")
    #expect(try left(["2 (400 g) cans"], "1 kg").isCovered)
    #expect(try !left(["2 (400 g) cans"], "3").isComparable, "a plain count is not a can of a measure")
  }

  /// Generated: for every pair of amounts, `a` compares with `b` exactly when `b` compares
  /// with `a`, so a list and cooking never disagree about whether two amounts compare.
  @Test func comparingHoldsBothWays() throws {
    let amounts = [
      "400 g", "1 kg", "2 cups", "500 ml", "3", "1 dozen", "2 (400 g) cans", "1 (14.5 oz) can", "2 (1 l) cartons", "2 (large) cans",
      "1 can", "2 cloves", "1 lb",
    ]
    for a in amounts {
      for b in amounts {
        for density in [nil, Rational(120)] {
          let forward = try left([a], b, gramsPerCup: density).isComparable
          let backward = try left([b], a, gramsPerCup: density).isComparable
          #expect(
            forward == backward, "\(a) against \(b) (density \(String(describing: density))): \(forward) one way, \(backward) the other")
        }
      }
    }
  }
}
