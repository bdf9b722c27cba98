import Normalization
import Testing

/// Amounts of one ingredient summed across units, and shown as a cook reads them.
@Suite("Amount totals")
struct AmountTotalTests {
  private func text(_ texts: [String?], in system: MeasureSystem? = nil, gramsPerCup: Rational? = nil) -> String {
    AmountTotal.sum(texts: texts, gramsPerCup: gramsPerCup).text(in: system)
  }

  @Test func cupsLitresAndMillilitresOfMilkAreOneVolume() throws {
    let total = AmountTotal.sum(texts: ["2 cup", "1 l", "500 ml"])
    #expect(total.parts.count == 1)
    let milk = try #require(total.parts.first)
    // 2 × 236.5882365 + 1500 ml, exactly.
    #expect(milk.quantity == Rational(19_731_764_730, 10_000_000))
    #expect(milk.dimension == .volume)
    #expect(milk.readable(in: .metric).text == "1.97 l")
    #expect(milk.readable(in: .us).text == "8 ⅓ cups")
    // Without a preference, the system of the first amount.
    #expect(milk.readable(in: nil).unit == "cup")
  }

  @Test func teaspoonsBecomeACupExactly() throws {
    let part = try #require(AmountTotal.sum(texts: Array(repeating: "1 tsp", count: 48)).parts.first)
    let readable = part.readable(in: nil)
    #expect(readable.quantity == .one)
    #expect(readable.text == "1 cup")
  }

  @Test func thirdsOfACupSumExactly() throws {
    let part = try #require(AmountTotal.sum(texts: ["⅓ cup", "⅔ cup"]).parts.first)
    #expect(part.readable(in: .us).quantity == .one)
  }

  @Test func gramsBecomeKilograms() {
    #expect(text(["1000 g", "500 g"]) == "1.5 kg")
    #expect(text(["250 g"]) == "250 g")
    #expect(text(["2.5 g"]) == "2.5 g")
  }

  @Test func ouncesBecomePounds() {
    #expect(text(["8 oz", "1 lb"]) == "1 ½ lb")
    #expect(text(["4 oz"]) == "4 oz")
  }

  @Test func smallUSVolumesUseSpoons() {
    #expect(text(["1 tsp", "1 tsp"]) == "2 tsp")
    #expect(text(["2 tsp", "2 tsp"]) == "1 ⅓ tbsp")
    #expect(text(["½ tsp"]) == "½ tsp")
    #expect(text(["3 tbsp", "1 tbsp"]) == "¼ cup")
    #expect(text(["3 tbsp", "3 tbsp"]) == "⅜ cup")
    // ¼ cup would be 11 % short of 4 ½ tbsp: the smaller unit reads it exactly.
    #expect(text(["3 tbsp", "1.5 tbsp"]) == "4 ½ tbsp")
  }

  @Test func countsAddByUnit() {
    #expect(text(["4 clove", "3 clove"]) == "7 cloves")
    #expect(text(["3", "6"]) == "9")
    #expect(text(["1 head", "2 clove"]) == "1 head + 2 cloves")
  }

  @Test func volumeAndMassStayApartWithoutADensity() {
    #expect(text(["2 cup", "500 g"]) == "2 cups + 500 g")
  }

  @Test func volumeAndMassCombineThroughADensity() throws {
    let total = AmountTotal.sum(texts: ["2 cup", "500 g"], gramsPerCup: Rational(120))
    #expect(total.parts.count == 1)
    #expect(total.parts.first?.quantity == Rational(740))
    #expect(total.text(in: nil) == "740 g")
  }

  @Test func aDensityAloneChangesNothing() {
    #expect(text(["2 cup"], gramsPerCup: Rational(120)) == "2 cups")
  }

  @Test func packagesCountBySize() {
    #expect(text(["2 (14.5 oz) can", "1 (14.5 oz) can"]) == "3 cans (14 ½ oz each)")
    #expect(text(["2 (14.5 oz) can", "1 (28 oz) can"]) == "2 cans (14 ½ oz each) + 1 can (28 oz each)")
    #expect(text(["2 x 400 g tins"]) == "2 cans (400 g each)")
  }

  @Test func itemsWithoutAnAmountAreNotLost() {
    let total = AmountTotal.sum(texts: ["½ tsp", nil])
    #expect(total.withoutAmount == 1)
    #expect(total.text(in: nil) == "½ tsp (+1 without amount)")
    #expect(text([nil, nil]) == "")
  }

  @Test func unreadableAmountsAreKeptAsWritten() {
    let total = AmountTotal.sum(texts: ["1 cup", "some"])
    #expect(total.unread == ["some"])
    #expect(total.text(in: nil) == "1 cup + some")
  }

  @Test func rangesSumBothEnds() {
    #expect(text(["1-2 l", "500 ml"]) == "1.5-2.5 l")
    #expect(text(["2-3 clove", "1 clove"]) == "3-4 cloves")
  }

  @Test func imperialPintsAddToUSCupsAsVolume() throws {
    let part = try #require(AmountTotal.sum(texts: ["1 imp pint", "1 pint"]).parts.first)
    #expect(part.quantity == Rational(56_826_125, 100_000)?.adding(Rational(2 * 2_365_882_365, 10_000_000) ?? .zero))
    #expect(part.readable(in: nil).text == "1 ⅞ imp pints")
  }

  @Test func metricPreferenceConvertsUSAmounts() {
    #expect(text(["1 lb"], in: .metric) == "454 g")
    #expect(text(["1 cup"], in: .metric) == "237 ml")
    #expect(text(["500 g"], in: .us) == "1 ⅛ lb")
  }

  @Test func tinyAmountsKeepTwoSignificantDigits() {
    #expect(text(["0.01 tsp"]) == "0.01 tsp")
  }
}
