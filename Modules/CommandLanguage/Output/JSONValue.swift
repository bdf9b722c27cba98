import Foundation

/// A JSON value with object keys kept in the order they were given, so output is stable
/// and reads in a sensible order.
public enum JSONValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number, written without a decimal point.
  case int(Int)
  /// A number with a fraction.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, its members in the order given.
  case object([Member])

  /// One member of an object: a key and its value.
  public struct Member: Sendable, Hashable {
    /// The member's key.
    public let key: String
    /// The member's value.
    public let value: JSONValue
    /// A member `key`: `value`.
    public init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// A string written as a literal: `"Produce"`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A whole number written as a literal: `4`.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// A Boolean written as a literal: `true`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An array written as a literal: `["a", 1]`.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// An object written as a literal, its members in the order written: `["name": "Produce", "order": 1]`.
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map(Member.init)) }

  /// A string, or null for nil.
  public static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
  /// A number, or null for nil.
  public static func number(_ value: Double?) -> JSONValue {
    guard let value else { return .null }
    if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
    return .double(value)
  }
  /// A whole number, or null for nil.
  public static func number(_ value: Int64?) -> JSONValue { value.map { .int(Int($0)) } ?? .null }
  /// An array of strings.
  public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

  /// The value of `key` in an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// Compact JSON text on one line.
  public var serialized: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .int(let number): output += String(number)
    case .double(let number):
      output += number.isFinite ? String(number) : "null"
    case .string(let text): Self.writeString(text, to: &output)
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { output += "," }
        Self.writeString(member.key, to: &output)
        output += ":"
        member.value.write(to: &output)
      }
      output += "}"
    }
  }

  private static func writeString(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case let control where control.value < 0x20:
        output += String(format: "\\u%04x", control.value)
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  /// How the value reads in a table cell: text as is, lists joined, nothing for null.
  public var cellText: String {
    switch self {
    case .null: ""
    case .bool(let flag): flag ? "yes" : "no"
    case .int(let number): String(number)
    case .double(let number): String(format: "%g", number)
    case .string(let text): text
    case .array(let values): values.map(\.cellText).joined(separator: ", ")
    case .object(let members): members.map { "\($0.key)=\($0.value.cellText)" }.joined(separator: " ")
    }
  }
}
