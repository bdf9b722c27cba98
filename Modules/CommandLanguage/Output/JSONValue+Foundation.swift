import Foundation

extension JSONValue {
  /// A value built of Foundation's JSON types — dictionaries, arrays, strings, numbers,
  /// booleans, `NSNull` — as ``JSONValue``, object keys sorted (the order
  /// `JSONSerialization` writes with `.sortedKeys`). Anything else is null.
  ///
  /// ```swift
  /// JSONValue(foundation: ["name": "Toast", "steps": ["Toast it."]])  // {"name":"Toast","steps":["Toast it."]}
  /// ```
  public init(foundation value: Any) {
    switch value {
    case let object as [String: Any]:
      self = .object(object.keys.sorted().compactMap { key in object[key].map { .init(key, JSONValue(foundation: $0)) } })
    case let array as [Any]: self = .array(array.map(JSONValue.init(foundation:)))
    case let text as String: self = .string(text)
    case let flag as Bool where type(of: value) == Bool.self: self = .bool(flag)
    case let number as Int where type(of: value) == Int.self: self = .int(number)
    case let number as Double where type(of: value) == Double.self: self = .number(number)
    // What JSONSerialization parsed: on Linux its booleans are numbers too (0 and 1).
    case let number as NSNumber: self = .number(number.doubleValue)
    default: self = .null
    }
  }
}
