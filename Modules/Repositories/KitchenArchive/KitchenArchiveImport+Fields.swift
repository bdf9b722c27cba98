import Foundation
import Model
import Normalization
import Persistence

extension KitchenArchiveImport {
  /// The record's fields as store values: every name a field of its kind, each value of
  /// its field's type, names cleaned as the repositories clean them, weeks canonical ISO
  /// weeks, and relationships resolved to the kitchen's records.
  func checkedFields(
    _ archived: KitchenArchiveRecord, of kind: EntityKind, fail: (String, String) -> KitchenArchiveError
  ) throws -> [String: FieldValue] {
    let schema = kind.schema
    for name in archived.fields.keys.sorted() where schema.field(named: name) == nil || name == schema.semanticKeyField {
      throw fail(String(name.prefix(60)), "is not a field of a \(kind.label) in an archive")
    }
    var fields: [String: FieldValue] = [:]
    for field in schema.fields where field.name != schema.semanticKeyField {
      guard let value = archived.fields[field.name], value != .null else { continue }
      fields[field.name] = try convert(value, for: field, fail: fail)
    }
    if let display = schema.field(named: schema.displayField), display.textRule == .name, case .text(let name)? = fields[display.name] {
      do {
        fields[display.name] = .text(try NameRules.clean(name, for: kind))
      } catch {
        throw fail(display.name, "is refused: \(error)")
      }
    }
    for name in ["weekIdentifier"] {
      guard case .text(let week)? = fields[name] else { continue }
      guard (try? Identity.week(of: week)) == week else { throw fail(name, "'\(week.prefix(40))' is not an ISO week YYYY-Www") }
    }
    return fields
  }

  /// One archive value as the store value of `field`.
  private func convert(_ value: ArchiveValue, for field: FieldDescriptor, fail: (String, String) -> KitchenArchiveError) throws
    -> FieldValue
  {
    switch (field.type, value) {
    case (.text, .string(let text)), (.duration, .string(let text)), (.civilDate, .string(let text)), (.enumeration, .string(let text)):
      return .text(text)
    case (.integer, .integer(let number)):
      return .integer(number)
    case (.real, .integer(let number)):
      return .real(Double(number))
    case (.real, .real(let number)):
      return .real(number)
    case (.bool, .bool(let flag)):
      return .bool(flag)
    case (.timestamp, .string(let text)):
      guard let date = ArchiveTimestamp.date(text) else {
        throw fail(field.name, "'\(text.prefix(40))' is not a time like 2026-11-27T08:00:00.000Z")
      }
      return .timestamp(date)
    case (.reference(let target), _):
      return .reference(try resolve(value, to: target, field: field.name, fail: fail))
    case (.referenceList(let target), .array(let items)):
      guard items.count <= ValueRules.maximumListCount else {
        throw fail(field.name, "has \(items.count) items; the limit is \(ValueRules.maximumListCount)")
      }
      return .referenceList(try items.map { try resolve($0, to: target, field: field.name, fail: fail) })
    case (.textList, .array(let items)):
      guard items.count <= ValueRules.maximumListCount else {
        throw fail(field.name, "has \(items.count) items; the limit is \(ValueRules.maximumListCount)")
      }
      return .textList(
        try items.enumerated().map { index, item in
          guard case .string(let text) = item else { throw fail(field.name, "item \(index + 1) is \(item.typeName), not a string") }
          return text
        })
    case (.integer, _): throw fail(field.name, "is \(value.typeName), not an integer")
    case (.real, _): throw fail(field.name, "is \(value.typeName), not a number")
    case (.bool, _): throw fail(field.name, "is \(value.typeName), not true or false")
    case (.referenceList, _), (.textList, _): throw fail(field.name, "is \(value.typeName), not an array")
    default: throw fail(field.name, "is \(value.typeName), not a string")
    }
  }

  /// The kitchen's id for the archive record a relationship names: by id, else by key,
  /// among the archive's records of the target kind (imported before this one).
  private func resolve(
    _ value: ArchiveValue, to target: EntityKind, field: String, fail: (String, String) -> KitchenArchiveError
  ) throws -> UUID {
    guard case .object(let reference) = value else {
      throw fail(field, "is \(value.typeName), not a reference {\"id\": …, \"key\": …}")
    }
    var id: UUID?
    if case .string(let text)? = reference["id"] { id = UUID(uuidString: text) }
    var key: String?
    if case .string(let text)? = reference["key"] { key = text }
    let position = id.flatMap { positionByID[target]?[$0] } ?? key.flatMap { positionByKey[target]?[$0] }
    guard let position, let archived = document.records[target]?[position], let mapped = mapping[target]?[archived.id] else {
      let named = [id.map { "id \($0.uuidString)" }, key.map { "key '\($0.prefix(80))'" }].compactMap { $0 }.joined(separator: ", ")
      throw fail(
        field, "names a \(target.label) the archive does not hold (\(named.isEmpty ? "no id or key" : named))")
    }
    return mapped
  }
}
