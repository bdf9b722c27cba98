public import Model

extension Record {
  /// Checks the record against its kind's schema: no unknown fields, required fields
  /// present, every value of its field's type, enumerations within their cases.
  /// Backends call this before every insert and update, so both reject the same records.
  /// - Throws: ``StoreError/invalidRecord(kind:id:field:reason:)``.
  public func validateAgainstSchema() throws(StoreError) {
    for (field, value) in zip(kind.schema.fields, values) {
      if value.isNull {
        if !field.isOptional && !Self.defaultsWhenNull(field.type) {
          throw StoreError.invalidRecord(kind: kind, id: id, field: field.name, reason: "is required")
        }
        continue
      }
      if let reason = Self.typeMismatch(value, field.type) {
        throw StoreError.invalidRecord(kind: kind, id: id, field: field.name, reason: reason)
      }
    }
    if let name = unknownFields.first {
      throw StoreError.invalidRecord(kind: kind, id: id, field: name, reason: "is not in the \(kind.rawValue) schema")
    }
  }

  /// Lists, integers and booleans read as empty, zero and false when null.
  private static func defaultsWhenNull(_ type: FieldType) -> Bool {
    switch type {
    case .textList, .referenceList, .integer, .bool: true
    default: false
    }
  }

  static func typeMismatch(_ value: FieldValue, _ type: FieldType) -> String? {
    switch (type, value) {
    case (.text, .text), (.duration, .text), (.integer, .integer), (.real, .real),
      (.bool, .bool), (.timestamp, .timestamp), (.reference, .reference), (.referenceList, .referenceList),
      (.textList, .textList):
      return nil
    case (.civilDate, .text(let text)):
      return CivilDate(iso: text) == nil ? "is not a date YYYY-MM-DD: '\(text)'" : nil
    case (.enumeration(let cases), .text(let text)):
      return cases.contains(text) ? nil : "'\(text)' is not one of \(cases.joined(separator: ", "))"
    default:
      return "has the wrong type for \(type) (\(value))"
    }
  }
}
