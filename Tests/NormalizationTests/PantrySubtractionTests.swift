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
}
