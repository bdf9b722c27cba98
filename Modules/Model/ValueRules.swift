public import Foundation

/// The bounds every value that enters a store or a change batch keeps, whoever sends it:
/// the command language, the repositories, the stores, a device's pull and the sync
/// server all check values with these rules, so a value one of them accepts no other
/// refuses, and a value none of them would write cannot arrive from another device either.
///
/// ```swift
/// ValueRules.textProblem("Pro\u{202E}duce", .name)  // "holds a bidi override (U+202E) at character 4"
/// ValueRules.problem(.real(.nan), for: field)        // "is not a finite number"
/// ```
public enum ValueRules {
  /// How long a text may be and which characters it may hold.
  public struct TextRule: Sendable, Hashable, CustomStringConvertible {
    /// The most characters (grapheme clusters) it may have.
    public let maximumCharacters: Int
    /// The most UTF-8 bytes it may have: a character can be many scalars (a letter with a
    /// thousand combining marks is one character), so characters alone bound nothing.
    public let maximumBytes: Int
    /// Whether tabs and line breaks (U+0009, U+000A, U+000D) may appear: paragraphs of a
    /// description, not a name.
    public let allowsLineBreaks: Bool

    /// A rule of these bounds.
    public init(maximumCharacters: Int, maximumBytes: Int, allowsLineBreaks: Bool) {
      self.maximumCharacters = maximumCharacters
      self.maximumBytes = maximumBytes
      self.allowsLineBreaks = allowsLineBreaks
    }

    /// A name people type: a category, an ingredient, a recipe title, a cuisine.
    public static let name = TextRule(maximumCharacters: 200, maximumBytes: 4_000, allowsLineBreaks: false)
    /// A key computed from names (normalization can lengthen a name: "ﬃ" → "ffi").
    public static let key = TextRule(maximumCharacters: 1_000, maximumBytes: 16_000, allowsLineBreaks: false)
    /// One line that is not a name: an ingredient line as written, an address.
    public static let line = TextRule(maximumCharacters: 2_000, maximumBytes: 32_000, allowsLineBreaks: false)
    /// A few paragraphs: a description, notes, a recipe step.
    public static let paragraphs = TextRule(maximumCharacters: 10_000, maximumBytes: 160_000, allowsLineBreaks: true)
    /// An ISO 8601 duration or another short code.
    public static let code = TextRule(maximumCharacters: 64, maximumBytes: 64, allowsLineBreaks: false)

    /// "at most N characters".
    public var description: String { "at most \(maximumCharacters) characters" }
  }

  /// The most items a list field may hold (steps, ingredient lines, aliases, tags).
  public static let maximumListCount = 2_000
  /// The earliest and latest instants a record's dates may name: 1900-01-01 and the end of
  /// 9999, UTC. Anything outside (an infinite or NaN date, year 200,000) is a broken clock
  /// or a hostile device, and SQLite's date functions cannot show it.
  public static let dateRange: ClosedRange<Double> = -2_208_988_800...253_402_300_799
  /// The bounds of a number field that names none: whole numbers and amounts from 0.
  public static let defaultIntegerRange: ClosedRange<Int64> = 0...1_000_000_000
  /// The bounds of a real number field that names none: 0 to a million.
  public static let defaultRealRange: ClosedRange<Double> = 0...1_000_000

  /// Why `text` breaks `rule`, or nil when it keeps it.
  public static func textProblem(_ text: String, _ rule: TextRule) -> String? {
    let bytes = text.utf8.count
    if bytes > rule.maximumBytes { return "is \(bytes) bytes long; the limit is \(rule.maximumBytes)" }
    // A character is at least one byte: counting bytes first spares counting characters.
    if bytes > rule.maximumCharacters {
      let characters = text.count
      if characters > rule.maximumCharacters {
        return "has \(characters) characters; the limit is \(rule.maximumCharacters)"
      }
    }
    if let (position, scalar) = firstForbidden(in: text, allowingLineBreaks: rule.allowsLineBreaks) {
      return "holds \(describe(scalar)) at character \(position)"
    }
    return nil
  }

  /// The first scalar a text may not hold, with its position in characters (from 1): a
  /// control character (general category Cc; tab and line breaks only where allowed), a
  /// bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069), which can make
  /// "Produce" display as another name, or a line or paragraph separator.
  public static func firstForbidden(in text: String, allowingLineBreaks: Bool) -> (position: Int, scalar: Unicode.Scalar)? {
    // ASCII text (most names) holds a forbidden scalar only below 0x20 or at 0x7F.
    let utf8 = text.utf8
    if !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return nil }
    var position = 0
    for character in text {
      position += 1
      for scalar in character.unicodeScalars where isForbidden(scalar, allowingLineBreaks: allowingLineBreaks) {
        return (position, scalar)
      }
    }
    return nil
  }

  /// Whether a text may not hold `scalar` (see ``firstForbidden(in:allowingLineBreaks:)``).
  public static func isForbidden(_ scalar: Unicode.Scalar, allowingLineBreaks: Bool) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: return !allowingLineBreaks
    case 0x00..<0x20, 0x7F: return true
    case 0x20..<0x7F: return false
    case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
    default: return scalar.properties.generalCategory == .control
    }
  }

  /// "a control character (U+001B)", "a bidi override (U+202E)".
  public static func describe(_ scalar: Unicode.Scalar) -> String {
    let digits = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069: return "a bidi override (\(code))"
    case 0x2028, 0x2029: return "a line separator (\(code))"
    default: return "a control character (\(code))"
    }
  }

  /// Why a date cannot be stored, or nil: it must be finite and within ``dateRange``.
  public static func dateProblem(_ date: Date) -> String? {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite else { return "is not a finite date" }
    guard dateRange.contains(seconds) else { return "is outside the years 1900–9999" }
    return nil
  }

  /// Why `value` cannot be the value of `field`, or nil: its type, and the field's bounds
  /// (text rule, list length, number range, date range, enumeration cases). Null is
  /// refused for a required field that is not a list, an integer or a flag.
  public static func problem(_ value: FieldValue, for field: FieldDescriptor) -> String? {
    switch (field.type, value) {
    case (_, .null):
      // Lists, integers and booleans read as empty, zero and false when null.
      switch field.type {
      case .textList, .referenceList, .integer, .bool: return nil
      default: return field.isOptional ? nil : "is required"
      }
    case (.text, .text(let text)), (.duration, .text(let text)):
      return textProblem(text, field.textRule)
    case (.civilDate, .text(let text)):
      return CivilDate(iso: text) == nil ? "is not a date YYYY-MM-DD: '\(text.prefix(40))'" : nil
    case (.enumeration(let cases), .text(let text)):
      return cases.contains(text) ? nil : "'\(text.prefix(40))' is not one of \(cases.joined(separator: ", "))"
    case (.integer, .integer(let number)):
      let range = field.integerRange
      return range.contains(number) ? nil : "\(number) is outside \(range.lowerBound)…\(range.upperBound)"
    case (.real, .real(let number)):
      guard number.isFinite else { return "is not a finite number" }
      let range = field.realRange
      return range.contains(number) ? nil : "\(number) is outside \(range.lowerBound)…\(range.upperBound)"
    case (.bool, .bool), (.reference, .reference):
      return nil
    case (.timestamp, .timestamp(let date)):
      return dateProblem(date)
    case (.textList, .textList(let texts)):
      guard texts.count <= maximumListCount else { return "has \(texts.count) items; the limit is \(maximumListCount)" }
      for (index, text) in texts.enumerated() {
        if let problem = textProblem(text, field.textRule) { return "item \(index + 1) \(problem)" }
      }
      return nil
    case (.referenceList, .referenceList(let ids)):
      return ids.count <= maximumListCount ? nil : "has \(ids.count) items; the limit is \(maximumListCount)"
    default:
      return "has the wrong type for \(field.type) (\(value.kindName))"
    }
  }
}

extension FieldValue {
  /// The value's case, for messages that must not print a value that may be huge.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .text: "text"
    case .integer: "integer"
    case .real: "number"
    case .bool: "flag"
    case .timestamp: "timestamp"
    case .reference: "reference"
    case .textList: "text list"
    case .referenceList: "reference list"
    }
  }
}
