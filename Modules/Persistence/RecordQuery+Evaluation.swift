package import Foundation
package import Model

extension RecordQuery {
  /// Whether `record` passes the query's filters and deletion rule. Backends that do not
  /// translate queries into their own language evaluate them with this.
  package func matches(_ record: Record) -> Bool {
    guard record.kind == kind, includeDeleted || record.meta.isLive else { return false }
    return filters.allSatisfy { $0.matches(record) }
  }

  /// The query's total order: its sort keys, then id.
  package func areInIncreasingOrder(_ lhs: Record, _ rhs: Record) -> Bool {
    for key in sort {
      let order = SortValue(lhs, key.field).compare(SortValue(rhs, key.field))
      if order != 0 { return key.ascending ? order < 0 : order > 0 }
    }
    return lhs.id.sortsBeforeAsText(rhs.id)
  }
}

extension UUID {
  /// Whether this id's lowercase text sorts before `other`'s, the order of the ids' text
  /// in a store, compared on the 16 bytes without building either text: two hex digits a
  /// byte, `0`–`9` before `a`–`f`, and the hyphens in the same places keep the bytes' order.
  package func sortsBeforeAsText(_ other: UUID) -> Bool {
    withUnsafeBytes(of: uuid) { mine in
      withUnsafeBytes(of: other.uuid) { theirs in
        for index in 0..<16 where mine[index] != theirs[index] { return mine[index] < theirs[index] }
        return false
      }
    }
  }
}

extension RecordFilter {
  package func matches(_ record: Record) -> Bool {
    switch self {
    case .equals(let field, let value):
      return record[field] == value
    case .contains(let field, let needle):
      let folded = needle.asciiLowercased()
      switch record[field] {
      case .text(let text): return folded.isEmpty || text.asciiLowercased().contains(folded)
      case .textList(let list): return list.contains { folded.isEmpty || $0.asciiLowercased().contains(folded) }
      default: return false
      }
    case .references(let field, let id):
      switch record[field] {
      case .reference(let value): return value == id
      case .referenceList(let values): return values.contains(id)
      default: return false
      }
    case .hasElement(let field, let element):
      if case .textList(let list) = record[field] { return list.contains(element) }
      return false
    case .hasPrefix(let field, let prefix):
      guard case .text(let text) = record[field] else { return false }
      return text.utf8.count >= prefix.utf8.count && text.asciiLowercased().utf8.starts(with: prefix.asciiLowercased().utf8)
    case .hasNormalizedName(let field, let key):
      guard case .text(let text) = record[field] else { return false }
      return Self.normalizedName(text) == key
    case .anyOf(let filters):
      return filters.contains { $0.matches(record) }
    }
  }
}

extension String {
  /// Lowercases ASCII letters only, as SQLite's `lower()` does, so every backend folds
  /// case the same way.
  package func asciiLowercased() -> String {
    String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
  }
}

/// A field value reduced to what SQLite compares: null < numbers < text, text by bytes.
private enum SortValue {
  case null
  case number(Double)
  case text([UInt8])

  init(_ record: Record, _ field: String) {
    switch field {
    case "createdAt": self = .number(record.meta.createdAt.timeIntervalSinceReferenceDate)
    case "updatedAt": self = .number(record.meta.updatedAt.timeIntervalSinceReferenceDate)
    default:
      switch record[field] {
      case .null: self = .null
      case .integer(let value): self = .number(Double(value))
      case .real(let value): self = .number(value)
      case .bool(let value): self = .number(value ? 1 : 0)
      case .timestamp(let value): self = .number(value.timeIntervalSinceReferenceDate)
      case .text(let value): self = .text(Array(value.utf8))
      case .reference(let value): self = .text(Array(value.uuidString.lowercased().utf8))
      case .textList, .referenceList: self = .text(Array(record[field].storageText.utf8))
      }
    }
  }

  func compare(_ other: SortValue) -> Int {
    switch (self, other) {
    case (.null, .null): 0
    case (.null, _): -1
    case (_, .null): 1
    case (.number(let a), .number(let b)): a < b ? -1 : (a > b ? 1 : 0)
    case (.number, .text): -1
    case (.text, .number): 1
    case (.text(let a), .text(let b)): a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
    }
  }
}
