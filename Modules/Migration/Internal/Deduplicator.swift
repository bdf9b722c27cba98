import Foundation
import GRDB
import Model
import Persistence
import PersistenceSQLite

/// The dedup step at schema v2: merges live records of unique kinds that share a
/// semantic key into the keeper — the smallest id (Docs/DESIGN.md §2) — re-points every
/// relationship to it, folds the losers' values in and tombstones the losers.
///
/// Without sync stamps to compare, values fold by what they mean (``rule(for:of:)``): a
/// flag set on any record stays set (favourite, staple), usage counts add up, the latest
/// "last used" wins, lists are united, and any other field the keeper has empty takes the
/// first loser's value (losers in id order); a loser's value the keeper cannot take is
/// listed in the report. A planned meal that loses its slot to another has its recipe
/// named in the keeper's notes.
///
/// Every step is a set-based statement per kind (``SQLiteMergeSet``): a store of 100k
/// duplicate groups is merged without reading its records one by one.
struct Deduplicator {
  let db: Database
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

  /// Merges every group, kind by kind.
  func run() throws -> DedupReport {
    var report = DedupReport()
    for kind in Self.order {
      let merges = try SQLiteMergeSet(db, kind: kind, origin: .migration, now: now)
      defer { try? merges.drop() }
      guard merges.loserCount > 0 else { continue }
      let rules = Dictionary(uniqueKeysWithValues: kind.schema.fields.map { ($0.name, Self.rule(for: $0, of: kind)) })
      for group in try merges.fold(rules) where !group.losers.isEmpty {
        report.merges.append(
          DedupReport.Merge(
            kind: kind, key: group.key, keeper: RecordRef(kind, group.keeper), losers: group.losers.map { RecordRef(kind, $0) },
            dropped: group.dropped
          )
        )
      }
      try merges.tombstoneLosers(at: now)
      report.repointed += try merges.repointReferences()
      // Each merge waits in the store for the next sync, which replicates it as a merge
      // edge: a device that still names the loser then lands on the keeper (PendingMerge).
      try merges.recordPendingMerges(origin: .migration)
    }
    return report
  }

  /// How a field of a group's keeper takes its losers' values (see the type's comment).
  static func rule(for field: FieldDescriptor, of kind: EntityKind) -> SQLiteMergeSet.FoldRule {
    switch field.type {
    case .bool: .any
    case .integer where field.name == "usageCount": .sum
    case .timestamp: .latest
    case .textList, .referenceList: .union
    case .reference(.recipe) where kind == .plannedMeal: .noteOthers(notes: "notes", prefix: "Also planned for this slot: ")
    default: .first
    }
  }
}

extension RecordRef {
  init(_ record: Record) {
    self.init(kind: record.kind, id: record.id, name: record[record.kind.schema.displayField].displayText)
  }

  init(_ kind: EntityKind, _ member: SQLiteMergeSet.Member) {
    self.init(kind: kind, id: member.id, name: member.name)
  }
}
