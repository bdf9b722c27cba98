import Foundation

/// A JSON value with object keys kept in the order they were given, so output is stable
/// and reads in a sensible order.
public enum JSONValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([Member])

  public struct Member: Sendable, Hashable {
    public let key: String
    public let value: JSONValue
    public init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map(Member.init)) }

  /// A string, or null for nil.
  public static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
  /// A number, or null for nil.
  public static func number(_ value: Double?) -> JSONValue {
    guard let value else { return .null }
    if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
    return .double(value)
  }
  public static func number(_ value: Int64?) -> JSONValue { value.map { .int(Int($0)) } ?? .null }
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
