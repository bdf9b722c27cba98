import Foundation
import GRDB
import Model
import Normalization
import Persistence
import PersistenceSQLite

/// Stage B, v2 → v3, inside the caller's transaction: checks that every live record of a
/// unique kind has its key and no two share one, then adds the unique constraints.
enum StageB {
  /// The records that stop stage B, or nil when it may proceed.
  static func refusal(_ reader: any StoreReader) throws -> StageBRefusal? {
    var refusal = StageBRefusal(unkeyed: [])
    for kind in Deduplicator.order {
      var groups: [String: [Record]] = [:]
      for record in try reader.fetch(RecordQuery(kind, sort: [])) {
        guard let key = record.semanticKey, !key.isEmpty else {
          refusal.unkeyed.append(RecordRef(record))
          continue
        }
        groups[key, default: []].append(record)
      }
      for (key, members) in groups.sorted(by: { $0.key < $1.key }) where members.count > 1 {
        let sorted = members.sorted { UUID.keeperOrder($0.id, $1.id) }
        refusal.duplicates.append((kind, key, sorted.map(RecordRef.init)))
      }
    }
    return refusal.unkeyed.isEmpty && refusal.duplicates.isEmpty ? nil : refusal
  }

  static func run(_ db: Database, _ writer: any StoreWriter) throws -> StageBRefusal? {
    if let refusal = try refusal(writer) { return refusal }
    try SQLiteSchemaSupport.createUniqueConstraints(db)
    try db.execute(sql: "PRAGMA user_version = 3")
    return nil
  }

  /// Gives live records of unique kinds with a blank name a placeholder name
  /// ("Unnamed category 3f2a9c1e") and its key, so stage B can proceed.
  static func nameUnnamed(_ writer: any StoreWriter) throws -> [RecordRef] {
    var named: [RecordRef] = []
    for kind in Deduplicator.order {
      guard let keyField = kind.schema.semanticKeyField else { continue }
      for var record in try writer.fetch(RecordQuery(kind, sort: [])) {
        guard (record.semanticKey ?? "").isEmpty else { continue }
        let display = kind.schema.displayField
        guard record[display].text.map({ Whitespace.trimmed($0, newlines: false) })?.isEmpty ?? true,
          case .text = kind.schema.field(named: display)?.type ?? .text
        else { continue }
        let name = "Unnamed \(kind.rawValue) \(record.id.uuidString.lowercased().prefix(8))"
        record[display] = .text(name)
        switch kind {
        case .ingredientTemplate: record[keyField] = .text(SemanticKey.canonicalIngredientName(name))
        case .book: record[keyField] = .text(SemanticKey.bookKey(title: name, author: record["author"].text))
        case .recipe: record[keyField] = .text(SemanticKey.titleKey(name))
        default: record[keyField] = .text(SemanticKey.normalizedName(name))
        }
        try writer.updateRecord(record)
        named.append(RecordRef(record))
      }
    }
    return named
  }
}
