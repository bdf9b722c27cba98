public import Foundation

/// One stored field value. Every entity field maps onto one of these cases, as its
/// ``FieldType`` in the schema says.
///
/// Two values are equal when they are the same bytes: texts compare by their UTF-8, not by
/// Swift's canonical equivalence, under which "Crème" with a precomposed "è" equals
/// "Cre\u{300}me". A data layer that compares values to decide whether a row changed,
/// which register wins or whether two devices converged must see what its tables and
/// batches hold; stores and sync keep every text in one form
/// (``ValueRules/canonical(_:)``), so equivalent texts that arrive are equal bytes.
public enum FieldValue: Sendable, Hashable, Codable {
  /// No value: the field is absent.
  case null
  /// A text.
  case text(String)
  /// A whole number.
  case integer(Int64)
  /// A floating-point number.
  case real(Double)
  /// True or false.
  case bool(Bool)
  /// An instant.
  case timestamp(Date)
  /// The id of another record.
  case reference(UUID)
  /// A list of texts.
  case textList([String])
  /// A list of ids of other records.
  case referenceList([UUID])

  /// Whether this is `.null`.
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

extension FieldValue {
  /// Whether two values are equal; texts compare by their UTF-8 bytes, not by Unicode equivalence.
  public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
    case (.integer(let a), .integer(let b)): a == b
    case (.real(let a), .real(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.timestamp(let a), .timestamp(let b)): a == b
    case (.reference(let a), .reference(let b)): a == b
    case (.textList(let a), .textList(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    case (.referenceList(let a), .referenceList(let b)): a == b
    default: false
    }
  }

  /// Hashes what `==` compares: a text's UTF-8 bytes.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .text(let text):
      hasher.combine(1)
      Self.combineBytes(of: text, into: &hasher)
    case .integer(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .bool(let value):
      hasher.combine(4)
      hasher.combine(value)
    case .timestamp(let value):
      hasher.combine(5)
      hasher.combine(value)
    case .reference(let value):
      hasher.combine(6)
      hasher.combine(value)
    case .textList(let texts):
      hasher.combine(7)
      hasher.combine(texts.count)
      for text in texts { Self.combineBytes(of: text, into: &hasher) }
    case .referenceList(let value):
      hasher.combine(8)
      hasher.combine(value)
    }
  }

  private static func combineBytes(of text: String, into hasher: inout Hasher) {
    let utf8 = text.utf8
    hasher.combine(utf8.count)
    if utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
      for byte in utf8 { hasher.combine(byte) }
    }
  }
}
