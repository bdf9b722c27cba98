import Foundation
import Model
import Normalization
import Persistence

extension Library {
  /// Every live record of the store as a kitchen archive: one array per kind, each
  /// record with its id, its semantic key and its relationships by id and key, sorted
  /// by key then id, so the same kitchen always gives the same document.
  ///
  /// Read in one read transaction. Sync metadata (registers, change log, tokens, replica
  /// ids) and tombstones are not part of it (Docs/IMPORT.md, "Kitchen archive").
  ///
  /// ```swift
  /// let document = try library.exportKitchen(schemaVersion: SQLiteStore.schemaVersion)
  /// try KitchenArchive.encode(document).write(to: url)
  /// ```
  /// - Parameters:
  ///   - schemaVersion: the store's schema version, recorded in the document.
  ///   - progress: called with records done, records in all, and the kind being written.
  public func exportKitchen(schemaVersion: Int, progress: ((Int, Int, String) -> Void)? = nil) throws -> KitchenArchiveDocument {
    let exportedAt = context.now()
    return try context.read { reader in
      var live: [EntityKind: [Record]] = [:]
      for kind in EntityKind.allCases { live[kind] = try reader.fetch(RecordQuery(kind, sort: [])) }
      let keys = ArchiveKeys(live)
      let total = keys.count
      var done = 0
      var records: [EntityKind: [KitchenArchiveRecord]] = [:]
      for kind in EntityKind.allCases {
        let label = KitchenArchiveDocument.arrayName(kind)
        var archived: [KitchenArchiveRecord] = []
        for record in live[kind] ?? [] {
          guard let key = keys.key(kind, record.id) else { continue }
          archived.append(KitchenArchiveRecord(id: record.id, key: key, fields: Self.archivedFields(record, keys: keys)))
          done += 1
          if done % 1_000 == 0 { progress?(done, total, label) }
        }
        archived.sort { ($0.key, $0.id.uuidString) < ($1.key, $1.id.uuidString) }
        records[kind] = archived
      }
      progress?(total, total, "")
      return KitchenArchiveDocument(schemaVersion: schemaVersion, exportedAt: exportedAt, records: records)
    }
  }

  /// A record's fields as archive values: the semantic-key field left out (it is the
  /// record's `key`), relationships as `{id, key}`, timestamps as ISO 8601 text, and a
  /// relationship to a record the archive does not hold dropped.
  static func archivedFields(_ record: Record, keys: ArchiveKeys) -> [String: ArchiveValue] {
    let schema = record.kind.schema
    var fields: [String: ArchiveValue] = [:]
    for field in schema.fields where field.name != schema.semanticKeyField {
      let value: ArchiveValue? =
        switch record[field.name] {
        case .null: nil
        case .text(let text): .string(text)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .bool(let flag): .bool(flag)
        case .timestamp(let date): .string(ArchiveTimestamp.text(date))
        case .reference(let id): field.type.referencedKind.flatMap { keys.reference($0, id) }
        case .referenceList(let ids): .array(ids.compactMap { id in field.type.referencedKind.flatMap { keys.reference($0, id) } })
        case .textList(let texts): .array(texts.map(ArchiveValue.string))
        }
      if let value { fields[field.name] = value }
    }
    return fields
  }
}

/// The key every live record has in an archive: its semantic key, or, for kinds without
/// one, a key made from its owner's key and its own name or position.
struct ArchiveKeys {
  private var keys: [EntityKind: [UUID: String]] = [:]

  init(_ live: [EntityKind: [Record]]) {
    for kind in [EntityKind.category, .tag, .ingredientTemplate, .book, .recipe, .plannedMeal, .groceryStore] {
      keys[kind] = Dictionary((live[kind] ?? []).map { ($0.id, $0.semanticKey ?? "") }, uniquingKeysWith: { a, _ in a })
    }
    keys[.weeklyList] = Dictionary(
      (live[.weeklyList] ?? []).map { ($0.id, $0.semanticKey ?? $0.keyOfItsName ?? "") }, uniquingKeysWith: { a, _ in a })
    keys[.mealPlan] = Dictionary((live[.mealPlan] ?? []).map { ($0.id, Self.mealPlanKey($0)) }, uniquingKeysWith: { a, _ in a })
    // Owned records follow their owner: one whose owner is not live is not shown, and
    // not archived either.
    var lines: [UUID: String] = [:]
    for line in live[.recipeIngredient] ?? [] {
      guard let recipe = line["recipe"].reference, let owner = keys[.recipe]?[recipe] else { continue }
      lines[line.id] = Self.lineKey(owner: owner, sortOrder: line["sortOrder"])
    }
    keys[.recipeIngredient] = lines
    var items: [UUID: String] = [:]
    for item in live[.groceryListItem] ?? [] {
      guard let list = item["weeklyList"].reference, let owner = keys[.weeklyList]?[list] else { continue }
      items[item.id] = Self.itemKey(owner: owner, name: item["displayName"].text ?? "")
    }
    keys[.groceryListItem] = items
  }

  var count: Int { keys.values.reduce(0) { $0 + $1.count } }

  func key(_ kind: EntityKind, _ id: UUID) -> String? { keys[kind]?[id] }

  /// `{id, key}` for a live record, nil for one the archive does not hold.
  func reference(_ kind: EntityKind, _ id: UUID) -> ArchiveValue? {
    guard let key = key(kind, id) else { return nil }
    return .object(["id": .string(id.uuidString), "key": .string(key)])
  }

  /// A meal plan's key: its normalized name and its week, `weeknights|2026-W47`.
  static func mealPlanKey(_ record: Record) -> String {
    SemanticKey.normalizedName(record["displayName"].text ?? "") + "|" + (record["weekIdentifier"].text ?? "")
  }

  /// An ingredient line's key: its recipe's key and its position, `egg fried rice#3`.
  static func lineKey(owner: String, sortOrder: FieldValue) -> String {
    if case .integer(let order) = sortOrder { return owner + "#" + String(order) }
    return owner + "#0"
  }

  /// A list item's key: its list's key and its normalized name, `2026-W47|weekly#milk`.
  static func itemKey(owner: String, name: String) -> String {
    owner + "#" + SemanticKey.normalizedName(name)
  }
}
