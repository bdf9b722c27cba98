import Foundation
import Model
import Normalization
import Persistence

/// One import of a kitchen archive inside one write transaction: each record checked,
/// matched to the kitchen's own, then created, updated or left as it is.
struct KitchenArchiveImport {
  let document: KitchenArchiveDocument
  let writer: any StoreWriter
  let context: RepositoryContext
  var summary: KitchenArchiveSummary

  /// Archive id → the kitchen's id, per kind, for every record imported so far.
  var mapping: [EntityKind: [UUID: UUID]] = [:]
  /// The kitchen's records already matched by an archive record, per kind.
  var claimed: [EntityKind: Set<UUID>] = [:]
  /// The kitchen's records this import created, per kind (their owned records are new too).
  var created: [EntityKind: Set<UUID>] = [:]
  /// Where each archive record is in its array, by id and by key.
  let positionByID: [EntityKind: [UUID: Int]]
  let positionByKey: [EntityKind: [String: Int]]
  /// Keys given so far to records of unique kinds: two records of one key are one record.
  var keysSeen: [EntityKind: [String: String]] = [:]
  /// The kitchen's records of owners and meal plans, read once when first needed.
  var ownedRecords: [UUID: [Record]] = [:]
  var mealPlansByKey: [String: [Record]]?
  let now: Date

  init(document: KitchenArchiveDocument, writer: any StoreWriter, context: RepositoryContext, dryRun: Bool) {
    self.document = document
    self.writer = writer
    self.context = context
    summary = KitchenArchiveSummary(dryRun: dryRun)
    now = context.now()
    var byID: [EntityKind: [UUID: Int]] = [:]
    var byKey: [EntityKind: [String: Int]] = [:]
    for (kind, records) in document.records {
      byID[kind] = Dictionary(records.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
      byKey[kind] = Dictionary(records.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
    positionByID = byID
    positionByKey = byKey
  }

  mutating func importAll(progress: ((Int, Int, String) -> Void)?) throws {
    let total = document.recordCount
    var done = 0
    for kind in KitchenArchiveOrder.kinds {
      let records = document.records[kind] ?? []
      var ids = Set<UUID>()
      for (index, record) in records.enumerated() {
        guard ids.insert(record.id).inserted else {
          throw Self.problem(kind, record, index, field: "id", "is the id of an earlier \(kind.label) in the archive")
        }
        try importRecord(record, index: index, of: kind)
        done += 1
        if done % 1_000 == 0 { progress?(done, total, KitchenArchiveDocument.arrayName(kind)) }
      }
    }
    try removeLinesNotInArchive()
    progress?(total, total, "")
  }

  /// The error for a record: named by its key, or its position when it has none.
  static func problem(_ kind: EntityKind, _ record: KitchenArchiveRecord, _ index: Int, field: String, _ reason: String)
    -> KitchenArchiveError
  {
    let label = record.key.isEmpty ? "record \(index + 1)" : "'\(record.key.prefix(80))' (record \(index + 1))"
    return .invalidRecord(kind, record: label, field: field, reason: reason)
  }

  private mutating func importRecord(_ archived: KitchenArchiveRecord, index: Int, of kind: EntityKind) throws {
    let schema = kind.schema
    let fail = { (field: String, reason: String) in Self.problem(kind, archived, index, field: field, reason) }
    var fields = try checkedFields(archived, of: kind, fail: fail)
    // Every value by the rules every store applies (ValueRules); the key field after the
    // key is computed from them.
    for field in schema.fields where field.name != schema.semanticKeyField {
      if let reason = ValueRules.problem(fields[field.name] ?? .null, for: field) { throw fail(field.name, reason) }
    }
    // The semantic key is the repositories' own, computed from the name, never taken as written.
    let key = try semanticKey(kind, id: archived.id, &fields, fail: fail)
    if let key, schema.identity.isUnique {
      if let earlier = keysSeen[kind]?[key] {
        throw fail("key", "'\(key.prefix(80))' is also the key of \(earlier) in the archive: they are one \(kind.label)")
      }
      keysSeen[kind, default: [:]][key] = "'\(archived.key.prefix(80))'"
    }
    if let keyField = schema.semanticKeyField, let descriptor = schema.field(named: keyField),
      let reason = ValueRules.problem(fields[keyField] ?? .null, for: descriptor)
    {
      throw fail(keyField, reason)
    }
    var record = Record(kind: kind, meta: context.newMeta(id: archived.id), fields: fields)

    var counts = summary.kinds[kind] ?? KitchenArchiveSummary.Counts()
    defer { summary.kinds[kind] = counts }
    if let existing = try match(kind, archived, record: record, key: key) {
      var merged = Record(kind: kind, meta: existing.meta, fields: fields)
      if schema.identity.isUnique, existing.semanticKey != key {
        // Found by an alias: the ingredient keeps its own name and key.
        for name in [schema.displayField] + [schema.semanticKeyField].compactMap({ $0 }) { merged[name] = existing[name] }
      }
      if Self.sameFields(merged, existing) {
        counts.unchanged += 1
      } else {
        merged.meta.updatedAt = now
        try writer.updateRecord(merged)
        counts.updated += 1
      }
      mapping[kind, default: [:]][archived.id] = existing.id
      claimed[kind, default: []].insert(existing.id)
      return
    }
    if try writer.record(kind, id: archived.id) != nil {
      // The id is taken (a deleted record, or one renamed away): a unique kind takes the
      // next name-based id of its key, as the repositories do; another kind a new id.
      let id: UUID
      if schema.identity.isUnique, let key { id = try writer.freeDeterministicID(kind, key: key) } else { id = context.newID() }
      record.meta = context.newMeta(id: id)
    }
    try writer.insertRecord(record)
    counts.created += 1
    mapping[kind, default: [:]][archived.id] = record.id
    claimed[kind, default: []].insert(record.id)
    created[kind, default: []].insert(record.id)
  }

  /// The key the repositories give this record, written into its key field; nil for kinds
  /// without one.
  private func semanticKey(
    _ kind: EntityKind, id: UUID, _ fields: inout [String: FieldValue], fail: (String, String) -> KitchenArchiveError
  ) throws -> String? {
    let schema = kind.schema
    if kind == .recipe {
      let key = SemanticKey.titleKey(fields["displayName"]?.text ?? "")
      guard !key.isEmpty else { throw fail("displayName", "needs at least one letter or digit") }
      fields["titleKey"] = .text(key)
      return key
    }
    guard schema.identity.isUnique, let keyField = schema.semanticKeyField else { return nil }
    let provisional = Record(kind: kind, meta: context.newMeta(id: id), fields: fields)
    guard let key = provisional.keyOfItsName, !key.isEmpty else {
      throw fail(schema.displayField, "gives no key: a \(kind.label) needs a name")
    }
    fields[keyField] = .text(key)
    return key
  }

  /// The kitchen's record this archive record is: for a unique kind, the live record of
  /// its key (or, for an ingredient, the one listing it as an alias); for other kinds the
  /// live record of its id, else one of its key no other archive record took.
  private mutating func match(_ kind: EntityKind, _ archived: KitchenArchiveRecord, record: Record, key: String?) throws -> Record? {
    let schema = kind.schema
    if schema.identity.isUnique, let key {
      if let found = try writer.records(kind, semanticKey: key).first { return found }
      if kind == .ingredientTemplate { return try IngredientTemplateRepository.templateWithAlias(key, in: writer)?.record }
      return nil
    }
    let taken = claimed[kind] ?? []
    let owner = schema.ownerField.flatMap { record[$0].reference }
    if let found = try writer.liveRecord(kind, id: archived.id), !taken.contains(found.id),
      schema.ownerField.map({ found[$0].reference == owner }) ?? true
    {
      return found
    }
    switch kind {
    case .recipe:
      guard let key else { return nil }
      return try writer.records(.recipe, semanticKey: key).first { !taken.contains($0.id) }
    case .mealPlan:
      if mealPlansByKey == nil {
        mealPlansByKey = Dictionary(grouping: try writer.fetch(RecordQuery(.mealPlan, sort: [])), by: ArchiveKeys.mealPlanKey)
      }
      return mealPlansByKey?[ArchiveKeys.mealPlanKey(record)]?.first { !taken.contains($0.id) }
    case .recipeIngredient:
      return try owned(by: owner, ownerKind: .recipe, field: "recipe").first {
        !taken.contains($0.id) && $0["sortOrder"] == record["sortOrder"]
      }
    case .groceryListItem:
      let name = SemanticKey.normalizedName(record["displayName"].text ?? "")
      return try owned(by: owner, ownerKind: .weeklyList, field: "weeklyList").first {
        !taken.contains($0.id) && SemanticKey.normalizedName($0["displayName"].text ?? "") == name
      }
    default:
      return nil
    }
  }

  /// The kitchen's live records owned by `owner` (none for an owner this import created).
  private mutating func owned(by owner: UUID?, ownerKind: EntityKind, field: String) throws -> [Record] {
    guard let owner, !(created[ownerKind]?.contains(owner) ?? false) else { return [] }
    if let cached = ownedRecords[owner] { return cached }
    let kind: EntityKind = ownerKind == .recipe ? .recipeIngredient : .groceryListItem
    let records = try writer.fetch(RecordQuery(kind, filters: [.references(field, owner)], sort: []))
    ownedRecords[owner] = records
    return records
  }

  /// A recipe the archive names keeps exactly the archive's ingredient lines: its other
  /// live lines are deleted, as editing the recipe's lines would.
  private mutating func removeLinesNotInArchive() throws {
    let recipes = (claimed[.recipe] ?? []).subtracting(created[.recipe] ?? [])
    let kept = claimed[.recipeIngredient] ?? []
    var removed = 0
    for recipe in recipes.sorted(by: { $0.uuidString < $1.uuidString }) {
      for line in try owned(by: recipe, ownerKind: .recipe, field: "recipe") where !kept.contains(line.id) {
        try writer.tombstoneRecord(.recipeIngredient, id: line.id, at: now)
        removed += 1
      }
    }
    summary.kinds[.recipeIngredient]?.removed += removed
  }

  /// Whether two records hold the same fields, timestamps compared to the millisecond an
  /// archive keeps.
  static func sameFields(_ a: Record, _ b: Record) -> Bool {
    let left = a.fields, right = b.fields
    guard left.count == right.count else { return false }
    for (name, value) in left {
      switch (value, right[name]) {
      case (.timestamp(let x), .timestamp(let y)?): if !ArchiveTimestamp.same(x, y) { return false }
      case (let x, let y?): if x != y { return false }
      default: return false
      }
    }
    return true
  }
}
