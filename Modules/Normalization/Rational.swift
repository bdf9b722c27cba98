/// An exact fraction, for amounts that must add up exactly: ⅓ cup + ⅔ cup is 1 cup, and
/// 48 teaspoons are 1 cup, where binary floating point would leave 0.9999999.
///
/// Numerator and denominator are 128-bit integers kept in lowest terms with a positive
/// denominator. Arithmetic that would not fit returns nil instead of trapping, so a caller
/// can keep the operands apart (the sums of amounts on a list do).
///
/// ```swift
/// let third = Rational(1, 3)!
/// third.adding(Rational(2, 3)!) == Rational(1)   // true
/// Rational(approximating: 14.5) == Rational(29, 2)   // true
/// ```
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The numerator, carrying the sign.
  public let numerator: Int128
  /// Always above zero.
  public let denominator: Int128

  /// `numerator / denominator` in lowest terms; nil when the denominator is zero.
  public init?(_ numerator: Int128, _ denominator: Int128) {
    guard denominator != 0, numerator != .min, denominator != .min else { return nil }
    let divisor = Self.gcd(numerator.magnitude, denominator.magnitude)
    let sign: Int128 = denominator < 0 ? -1 : 1
    self.numerator = sign * numerator / Int128(divisor)
    self.denominator = sign * denominator / Int128(divisor)
  }

  /// A whole number.
  public init(_ integer: Int) {
    numerator = Int128(integer)
    denominator = 1
  }

  /// The fraction a floating-point amount stands for: the simplest fraction with a
  /// denominator up to 1,000 within one part in 10⁹ (0.333… → ⅓, 0.125 → ⅛), else the
  /// shortest decimal that reads back as the same double (236.5882365 →
  /// 473176473/2000000). Nil for infinities, NaN and magnitudes past 10³⁰ or below 10⁻³⁰.
  public init?(approximating value: Double) {
    guard value.isFinite else { return nil }
    if let simple = Self.continuedFraction(value, maximumDenominator: 1_000, tolerance: 1e-9 * max(1, abs(value))) {
      self = simple
      return
    }
    guard let decimal = Self.decimal(value) else { return nil }
    self = decimal
  }

  /// Zero.
  public static let zero = Rational(0)
  /// One.
  public static let one = Rational(1)

  /// The nearest double.
  public var doubleValue: Double { Double(numerator) / Double(denominator) }

  /// "25/3", or "3" for a whole number, "-1/2" below zero.
  public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

  /// Whether the value is a whole number (its denominator is 1).
  public var isWhole: Bool { denominator == 1 }

  /// The largest whole number not above this one.
  public var floor: Int128 {
    let quotient = numerator / denominator
    return numerator < 0 && quotient * denominator != numerator ? quotient - 1 : quotient
  }

  /// `self + other`, or nil when the result does not fit.
  public func adding(_ other: Rational) -> Rational? {
    guard let left = Self.multiply(numerator, other.denominator), let right = Self.multiply(other.numerator, denominator),
      let denominator = Self.multiply(denominator, other.denominator)
    else { return nil }
    let (sum, overflow) = left.addingReportingOverflow(right)
    return overflow ? nil : Rational(sum, denominator)
  }

  /// `self - other`, or nil when the result does not fit.
  public func subtracting(_ other: Rational) -> Rational? { adding(Rational(unchecked: -other.numerator, other.denominator)) }

  /// `self × other`, or nil when the result does not fit.
  public func multiplied(by other: Rational) -> Rational? {
    // Cross-reducing first keeps the products small: (a/b)(c/d) = (a/g1)(c/g2) / ((b/g2)(d/g1)).
    let g1 = Int128(Self.gcd(numerator.magnitude, other.denominator.magnitude))
    let g2 = Int128(Self.gcd(other.numerator.magnitude, denominator.magnitude))
    guard let top = Self.multiply(numerator / g1, other.numerator / g2),
      let bottom = Self.multiply(denominator / g2, other.denominator / g1)
    else { return nil }
    return Rational(top, bottom)
  }

  /// `self ÷ other`, or nil when `other` is zero or the result does not fit.
  public func divided(by other: Rational) -> Rational? {
    guard other.numerator != 0 else { return nil }
    return multiplied(by: Rational(unchecked: other.denominator, other.numerator).normalizedSign)
  }

  /// Orders fractions by value, exactly unless the cross products do not fit.
  public static func < (lhs: Rational, rhs: Rational) -> Bool {
    if lhs.denominator == rhs.denominator { return lhs.numerator < rhs.numerator }
    guard let left = multiply(lhs.numerator, rhs.denominator), let right = multiply(rhs.numerator, lhs.denominator) else {
      return lhs.doubleValue < rhs.doubleValue
    }
    return left < right
  }

  // MARK: - Internal

  /// A fraction already in lowest terms with a positive denominator: the module's own
  /// constants (⅛, ¼, ⅓ …), which need no reducing and cannot fail.
  init(lowestTerms numerator: Int128, _ denominator: Int128) {
    self.init(unchecked: numerator, denominator)
  }

  private init(unchecked numerator: Int128, _ denominator: Int128) {
    self.numerator = numerator
    self.denominator = denominator
  }

  private var normalizedSign: Rational { denominator < 0 ? Rational(unchecked: -numerator, -denominator) : self }

  private static func multiply(_ a: Int128, _ b: Int128) -> Int128? {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? nil : product
  }

  private static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a == 0 ? 1 : a
  }

  /// The best approximation with a bounded denominator (Stern–Brocot by continued
  /// fractions), when it is within `tolerance`.
  private static func continuedFraction(_ value: Double, maximumDenominator: Int128, tolerance: Double) -> Rational? {
    guard abs(value) < 1e15 else { return nil }
    var x = abs(value)
    var (p0, q0, p1, q1): (Int128, Int128, Int128, Int128) = (0, 1, 1, 0)
    for _ in 0..<40 {
      let a = Int128(x.rounded(.down))
      let (p2, q2) = (a * p1 + p0, a * q1 + q0)
      guard q2 <= maximumDenominator else { break }
      (p0, q0, p1, q1) = (p1, q1, p2, q2)
      if abs(Double(p1) / Double(q1) - abs(value)) <= tolerance {
        return Rational(value < 0 ? -p1 : p1, q1)
      }
      let fraction = x - Double(a)
      guard fraction > 0 else { break }
      x = 1 / fraction
    }
    return nil
  }

  /// The shortest decimal text of `value` ("236.5882365", "1e-05") as a fraction.
  private static func decimal(_ value: Double) -> Rational? {
    let text = "\(value)"
    let parts = text.lowercased().split(separator: "e", maxSplits: 1)
    guard let mantissa = parts.first else { return nil }
    let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    let negative = mantissa.hasPrefix("-")
    let digits = mantissa.drop(while: { $0 == "-" })
    let pieces = digits.split(separator: ".", omittingEmptySubsequences: false)
    let whole = pieces.first ?? "0"
    let fraction = pieces.count > 1 ? pieces[1] : ""
    guard let integer = Int128(String(whole) + String(fraction)) else { return nil }
    let scale = fraction.count - exponent
    guard abs(scale) <= 30 else { return nil }
    var power: Int128 = 1
    for _ in 0..<abs(scale) { power *= 10 }
    let signed = negative ? -integer : integer
    if scale >= 0 { return Rational(signed, power) }
    guard let scaled = multiply(signed, power) else { return nil }
    return Rational(scaled, 1)
  }
}
