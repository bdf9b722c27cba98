/// What is left to buy of an ingredient once what is on hand is taken off.
///
/// ```swift
/// let needed = AmountTotal.sum(texts: ["750 g"])
/// let left = needed.subtracting(onHand: ExactAmount.parse("500 g")!)
/// left.remaining.parts[0].text(in: nil)   // "250 g"
/// ```
public struct PantrySubtraction: Hashable, Sendable {
  /// The amounts still needed: the total with the amount on hand taken off one of its
  /// parts (a part that reaches zero is gone).
  public let remaining: AmountTotal
  /// Whether the amount on hand could be compared with a part of the total: the same
  /// dimension (any units), volume against mass through a density, counts of one unit,
  /// dozens against plain counts, or packages whose size is a measure against that measure.
  public let isComparable: Bool

  /// Nothing is left to buy: the amount on hand covers every amount of the total.
  public var isCovered: Bool {
    isComparable && remaining.parts.isEmpty && remaining.unread.isEmpty && remaining.withoutAmount == 0
  }
}

extension AmountTotal {
  /// This total with `onHand` taken off, where the two can be compared; otherwise the
  /// total unchanged and ``PantrySubtraction/isComparable`` false.
  ///
  /// A range keeps its range, both ends lowered and floored at zero; a part whose upper
  /// end (or quantity) reaches zero is removed.
  /// - Parameters:
  ///   - onHand: the amount on hand.
  ///   - gramsPerCup: the ingredient's density, which lets mass on hand count against
  ///     volume needed and the other way round.
  public func subtracting(onHand: ExactAmount, gramsPerCup: Rational? = nil) -> PantrySubtraction {
    guard let have = AmountTotal.sum([onHand]).parts.first else { return PantrySubtraction(remaining: self, isComparable: false) }
    for (index, part) in parts.enumerated() {
      guard let amount = Self.quantity(of: have, as: part, gramsPerCup: gramsPerCup) else { continue }
      var remaining = self
      if let lowered = part.lowered(by: amount) {
        remaining.parts[index] = lowered
      } else {
        remaining.parts.remove(at: index)
      }
      return PantrySubtraction(remaining: remaining, isComparable: true)
    }
    return PantrySubtraction(remaining: self, isComparable: false)
  }

  /// `have` expressed in the units of `part`, or nil when the two cannot be compared: the
  /// one comparison of an amount on hand with an amount needed, which a list (what is left
  /// to buy) and cooking (what is left on hand) both make, each from its side. It holds
  /// both ways: when `a` compares with `b`, `b` compares with `a`.
  static func quantity(of have: Part, as part: Part, gramsPerCup: Rational?) -> Rational? {
    if have.sumsWith(part) { return have.quantity }
    // A dozen is twelve of a plain count.
    let dozen = Rational(12)
    if have.dimension == nil, part.dimension == nil, have.packageSize == nil, part.packageSize == nil {
      if have.unit == "dozen", part.unit == nil { return have.quantity.multiplied(by: dozen) }
      if have.unit == nil, part.unit == "dozen" { return have.quantity.divided(by: dozen) }
    }
    // Packages whose size is a measure ("2 (400 g) cans") count as that measure.
    if let size = have.packageSize, let measured = AmountTotal.sum([ExactAmount(quantity: size.quantity, unit: size.unit)]).parts.first,
      measured.dimension != nil, let total = measured.quantity.multiplied(by: have.quantity)
    {
      var asMeasure = measured
      asMeasure.quantity = total
      return quantity(of: asMeasure, as: part, gramsPerCup: gramsPerCup)
    }
    // And a measure against packages whose size is a measure: "400 g" is one "(400 g) can".
    if let size = part.packageSize, let measured = AmountTotal.sum([ExactAmount(quantity: size.quantity, unit: size.unit)]).parts.first,
      measured.dimension != nil, measured.quantity > .zero, let inSizeUnits = quantity(of: have, as: measured, gramsPerCup: gramsPerCup)
    {
      return inSizeUnits.divided(by: measured.quantity)
    }
    guard let gramsPerCup, let perMillilitre = gramsPerCup.divided(by: Measures.usCup) else { return nil }
    if have.dimension == .mass, part.dimension == .volume { return have.quantity.divided(by: perMillilitre) }
    if have.dimension == .volume, part.dimension == .mass { return have.quantity.multiplied(by: perMillilitre) }
    return nil
  }
}

extension AmountTotal.Part {
  /// The part with `amount` taken off both ends, or nil when nothing of it is left.
  func lowered(by amount: Rational) -> Self? {
    guard let low = quantity.subtracting(amount) else { return self }
    let high = upperBound.flatMap { $0.subtracting(amount) }
    if (high ?? low) <= .zero { return nil }
    var result = self
    result.quantity = low < .zero ? .zero : low
    result.upperBound = high
    return result
  }
}
