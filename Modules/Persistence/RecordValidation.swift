public import Model

extension Record {
  /// Checks the record against its kind's schema and `ValueRules`: no unknown fields,
  /// required fields present, every value of its field's type and within its bounds (text
  /// lengths and characters, finite numbers in range, dates in 1900–9999, enumerations
  /// within their cases), values of at most `RecordBudget/maximumRecordBytes` together
  /// once expanded, and creation and update times that are finite dates in range.
  /// Backends call this before every insert and update, so both reject the same records,
  /// and no value a device could not type reaches a table from anywhere.
  /// - Throws: ``StoreError/invalidRecord(kind:id:field:reason:)``.
  public func validateAgainstSchema() throws(StoreError) {
    for (field, value) in zip(kind.schema.fields, values) {
      if let reason = ValueRules.problem(value, for: field) {
        throw StoreError.invalidRecord(kind: kind, id: id, field: field.name, reason: reason)
      }
    }
    if let reason = RecordBudget.recordProblem(bytes: RecordBudget.bytes(of: values)) {
      let largest = zip(kind.schema.fields, values).max { RecordBudget.bytes(of: $0.1) < RecordBudget.bytes(of: $1.1) }
      throw StoreError.invalidRecord(kind: kind, id: id, field: largest?.0.name ?? "values", reason: reason)
    }
    if let name = unknownFields.first {
      throw StoreError.invalidRecord(kind: kind, id: id, field: name, reason: "is not in the \(kind.rawValue) schema")
    }
    if let reason = ValueRules.dateProblem(meta.createdAt) {
      throw StoreError.invalidRecord(kind: kind, id: id, field: "createdAt", reason: reason)
    }
    if let reason = ValueRules.dateProblem(meta.updatedAt) {
      throw StoreError.invalidRecord(kind: kind, id: id, field: "updatedAt", reason: reason)
    }
    if let reason = ValueRules.textProblem(meta.ownerID, .name) {
      throw StoreError.invalidRecord(kind: kind, id: id, field: "ownerID", reason: reason)
    }
    if let deletedAt = meta.deletedAt, let reason = ValueRules.dateProblem(deletedAt) {
      throw StoreError.invalidRecord(kind: kind, id: id, field: "deletedAt", reason: reason)
    }
  }

  /// Why `value` does not have the type `type` stores, or nil (bounds are not checked: a
  /// query compares with any value of the right type).
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
