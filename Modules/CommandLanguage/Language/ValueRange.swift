/// The numbers an integer or number argument may take, declared with its spec and checked
/// when the command is parsed, so `--dry-run` finds `--timeout 0` before anything runs.
///
/// ```swift
/// .value("timeout", "the longest wait in seconds", .number, range: .above(0, atMost: 3_600))
/// .value("events", "how many recent events to show", .integer, range: .from(0, to: 100))
/// ```
public struct ValueRange: Sendable, Hashable, CustomStringConvertible {
  /// The lowest number allowed, or the number every allowed one is above (``includesLower``).
  public let lower: Double
  /// Whether `lower` itself is allowed ("from 0") or only numbers above it ("above 0").
  public let includesLower: Bool
  /// The highest number allowed.
  public let upper: Double

  /// From `lower` to `upper`, both included.
  public static func from(_ lower: Double, to upper: Double) -> ValueRange {
    ValueRange(lower: lower, includesLower: true, upper: upper)
  }

  /// Above `lower` and at most `upper`.
  public static func above(_ lower: Double, atMost upper: Double) -> ValueRange {
    ValueRange(lower: lower, includesLower: false, upper: upper)
  }

  /// Whether `value` is a finite number inside the range.
  public func contains(_ value: Double) -> Bool {
    value.isFinite && (includesLower ? value >= lower : value > lower) && value <= upper
  }

  /// "from 0 to 100", "above 0 and at most 3,600".
  public var description: String {
    includesLower
      ? "from \(Self.text(lower)) to \(Self.text(upper))" : "above \(Self.text(lower)) and at most \(Self.text(upper))"
  }

  /// A bound as people read it: "1,000,000", "0.5".
  static func text(_ value: Double) -> String {
    guard value == value.rounded(), abs(value) < 1e15 else { return String(value) }
    let digits = String(Int64(abs(value)))
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }
}
