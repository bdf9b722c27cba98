public import Foundation

/// One stored field value. Every entity field maps onto one of these cases, as its
/// ``FieldType`` in the schema says.
public enum FieldValue: Sendable, Hashable, Codable {
  case null
  case text(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case timestamp(Date)
  case reference(UUID)
  case textList([String])
  case referenceList([UUID])

  public var isNull: Bool { if case .null = self { true } else { false } }

  /// The text, when this is `.text`.
  public var text: String? { if case .text(let value) = self { value } else { nil } }
  /// The referenced id, when this is `.reference`.
  public var reference: UUID? { if case .reference(let value) = self { value } else { nil } }
  /// The referenced ids, when this is `.referenceList`.
  public var references: [UUID] { if case .referenceList(let value) = self { value } else { [] } }

  /// A short human-readable rendering, used in errors and tables.
  public var displayText: String {
    switch self {
    case .null: ""
    case .text(let value): value
    case .integer(let value): String(value)
    case .real(let value): value.formatted(.number.precision(.fractionLength(0...3)))
    case .bool(let value): value ? "yes" : "no"
    case .timestamp(let value): value.formatted(.iso8601)
    case .reference(let value): value.uuidString.lowercased()
    case .textList(let value): value.joined(separator: ", ")
    case .referenceList(let value): value.map { $0.uuidString.lowercased() }.joined(separator: ", ")
    }
  }
}
