/// One JSON value of a kitchen archive: what a record's field holds once written out.
///
/// A small closed type instead of `Any` from `JSONSerialization`, so that encoding is
/// deterministic (`JSONEncoder` with sorted keys writes every number the same way each
/// time: integers as integers, reals in their shortest exact form) and decoding keeps
/// integers apart from reals.
public enum ArchiveValue: Sendable, Hashable, Codable {
  /// JSON null.
  case null
  /// A JSON boolean.
  case bool(Bool)
  /// A JSON number without a fraction.
  case integer(Int64)
  /// A JSON number with a fraction.
  case real(Double)
  /// A JSON string.
  case string(String)
  /// A JSON array.
  case array([ArchiveValue])
  /// A JSON object.
  case object([String: ArchiveValue])

  /// Reads any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .real(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([ArchiveValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: ArchiveValue].self))
    }
  }

  /// Writes the value as JSON.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .real(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The JSON type's name, for messages that must not print a value that may be huge.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer: "an integer"
    case .real: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
