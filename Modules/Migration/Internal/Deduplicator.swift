import Foundation
import GRDB
import Model
import Persistence
import PersistenceSQLite

/// The dedup step at schema v2: merges live records of unique kinds that share a
/// semantic key into the keeper — the smallest id (DESIGN.md §2) — re-points every
/// relationship to it, folds the losers' values in and tombstones the losers.
///
/// Without sync stamps to compare, values fold by what they mean: a flag set on any
/// record stays set (favourite, staple), usage counts add up, the latest "last used" wins,
/// lists are united, and any other field the keeper has empty takes the first loser's
/// value; a loser's value the keeper cannot take is listed in the report. A planned meal
/// that loses its slot to another keeps its recipe in the keeper's notes.
struct Deduplicator {
  let db: Database
  let writer: any StoreWriter
  let now: Date

  /// Unique kinds, each after the unique kinds it refers to, so that a template's
  /// category already points at the category keeper when templates are compared.
  static var order: [EntityKind] {
    var remaining = EntityKind.allCases.filter { $0.schema.identity.isUnique }
    var ordered: [EntityKind] = []
    while !remaining.isEmpty {
      let ready = remaining.filter { kind in
        kind.schema.relationships.allSatisfy { field in
          guard let target = field.type.referencedKind, target != kind else { return true }
          return !remaining.contains(target)
        }
      }
      let next = ready.isEmpty ? remaining : ready
      ordered += next
      remaining.removeAll { next.contains($0) }
    }
    return ordered
  }

  /// Merges every group, kind by kind. Groups are found, losers tombstoned and
  /// references re-pointed by set-based statements (``SQLiteMergeSet``); only the records
  /// of the groups are read, and a keeper is written only when folding changed it.
  func run() throws -> DedupReport {
    var report = DedupReport()
    for kind in Self.order {
      let merges = try SQLiteMergeSet(db, kind: kind, origin: .migration, now: now)
      defer { try? merges.drop() }
      guard merges.loserCount > 0 else { continue }
      for group in try merges.groups() where group.count > 1 {
        guard let key = group[0].semanticKey else { continue }
        var keeper = group[0]
        var dropped: [String] = []
        for loser in group.dropFirst() { try fold(loser, into: &keeper, dropped: &dropped) }
        try merges.update(keeper, replacing: group[0])
        report.merges.append(
          DedupReport.Merge(
            kind: kind, key: key, keeper: RecordRef(group[0]), losers: group.dropFirst().map(RecordRef.init), dropped: dropped
          )
        )
      }
      try merges.tombstoneLosers(at: now)
      report.repointed += try merges.repointReferences()
    }
    return report
  }

  /// Folds a loser's values into the keeper (see the type's comment).
  private func fold(_ loser: Record, into keeper: inout Record, dropped: inout [String]) throws {
    let schema = loser.kind.schema
    let identity = Set(schema.identityFields)
    for field in schema.fields where !identity.contains(field.name) {
      let mine = keeper[field.name], theirs = loser[field.name]
      guard !Self.isEmpty(theirs), mine != theirs else { continue }
      switch (field.type, mine, theirs) {
      case (.bool, _, .bool(let value)):
        if value { keeper[field.name] = .bool(true) }
      case (.integer, .integer(let a), .integer(let b)) where field.name == "usageCount":
        keeper[field.name] = .integer(a + b)
      case (.timestamp, .timestamp(let a), .timestamp(let b)):
        keeper[field.name] = .timestamp(max(a, b))
      case (.textList, _, .textList(let values)):
        let current = mine.textValues
        keeper[field.name] = .textList(current + values.filter { !current.contains($0) })
      case (.referenceList, _, .referenceList(let ids)):
        let current = mine.references
        keeper[field.name] = .referenceList(current + ids.filter { !current.contains($0) })
      case (.reference(.recipe), .reference, .reference(let recipe)) where loser.kind == .plannedMeal:
        let title = try writer.record(.recipe, id: recipe).map { $0["displayName"].displayText } ?? recipe.uuidString.lowercased()
        let note = "Also planned for this slot: \(title)"
        let notes = keeper["notes"].text.map { $0 + "\n" + note } ?? note
        keeper["notes"] = .text(notes)
        dropped.append("recipe: \(title) (kept in notes)")
      default:
        if Self.isEmpty(mine) {
          keeper[field.name] = theirs
        } else {
          dropped.append("\(field.name): \(theirs.displayText)")
        }
      }
    }
    keeper.meta.createdAt = min(keeper.meta.createdAt, loser.meta.createdAt)
    keeper.meta.updatedAt = max(keeper.meta.updatedAt, loser.meta.updatedAt)
  }

  static func isEmpty(_ value: FieldValue) -> Bool {
    switch value {
    case .null: true
    case .text(let text): text.isEmpty
    case .textList(let values): values.isEmpty
    case .referenceList(let ids): ids.isEmpty
    default: false
    }
  }
}

extension FieldValue {
  var textValues: [String] { if case .textList(let values) = self { values } else { [] } }
}

extension RecordRef {
  init(_ record: Record) {
    self.init(kind: record.kind, id: record.id, name: record[record.kind.schema.displayField].displayText)
  }
}
