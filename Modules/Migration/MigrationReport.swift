public import Foundation
public import Model

/// The schema version of a store file, as ``StoreMigrator/version()`` finds it.
public enum StoreVersion: Sendable, Hashable, CustomStringConvertible {
  /// No file, or an empty SQLite file: a new store is created at the current version.
  case empty
  /// A Forager store at this schema version (1, 2, 3, or newer than this build).
  case forager(Int)
  /// A SQLite file that is not a Forager store.
  case foreign

  /// What to tell the person who opened the store.
  public var description: String {
    switch self {
    case .empty: return "no store yet (a new one is created at schema v\(StoreMigrator.currentVersion))"
    case .foreign: return "not a Forager store"
    case .forager(let version) where version == StoreMigrator.currentVersion:
      return "schema v\(version) (current)"
    case .forager(let version) where version > StoreMigrator.currentVersion:
      return "schema v\(version), written by a newer Forager (this build reads up to v\(StoreMigrator.currentVersion))"
    case .forager(let version):
      if version >= StoreMigrator.oldestOpened {
        let missing =
          switch version {
          case 3: "weekly lists not yet keyed by week"
          case 4: "no stores or pantry amounts yet"
          default: "no ingredient groups or plan amounts yet"
          }
        return "schema v\(version) (\(missing); opening it upgrades it, or run `migrate`)"
      }
      return "schema v\(version) (\(version == 1 ? "the earlier app's layout" : "semantic keys, no constraints yet")); "
        + "run `migrate --dry-run` to see what would change, then `migrate` (a backup is made first)"
    }
  }

  /// Whether the store must be migrated before this build can open it (a v3 store is
  /// upgraded when it opens).
  public var needsMigration: Bool {
    if case .forager(let version) = self { return version < StoreMigrator.oldestOpened }
    return false
  }
}

/// What a migration did, or with `--dry-run` would do.
public struct MigrationReport: Sendable, Hashable {
  public var path: String
  public var fromVersion: Int
  public var toVersion: Int
  public var isDryRun: Bool
  /// The copy of the file made before the first change (nil for a dry run or when no
  /// stage ran).
  public var backupPath: String?
  /// The zone planned-meal instants were read in (stage A).
  public var timeZone: String
  public var stageA: StageAReport?
  public var dedup: DedupReport?
  /// Whether stage B added the unique constraints.
  public var addedConstraints: Bool
  /// Whether stage C keyed the weekly lists by week and name (its merges are in ``dedup``).
  public var keyedWeeklyLists = false
  /// Stage D ran: the stores' table and the v5 columns were added.
  public var addedStores = false
  /// Stage E ran: the recipe lines' `group` and the list items' `planAmount` columns were added.
  public var addedIngredientGroups = false
  /// Records given a placeholder name because theirs was blank (`--name-unnamed`).
  public var named: [RecordRef]
  /// Why stage B refused (dry runs report it here; ``StoreMigrator/migrate(_:)`` throws it).
  public var refusal: StageBRefusal?

  /// Whether nothing was (or would be) changed: the store was already at the target.
  public var isNoOp: Bool {
    fromVersion == toVersion && (dedup?.merges.isEmpty ?? true) && named.isEmpty && refusal == nil
  }

  /// The report as lines for a terminal.
  public var lines: [String] {
    var lines: [String] = []
    let verb = isDryRun ? "would migrate" : "migrated"
    if isNoOp {
      lines.append("\(path): already at schema v\(toVersion); nothing to do")
      return lines
    }
    lines.append(
      fromVersion == toVersion
        ? "\(path): schema v\(fromVersion)\(isDryRun ? " (dry run)" : "")" : "\(path): \(verb) schema v\(fromVersion) → v\(toVersion)"
    )
    if let backupPath { lines.append("backup: \(backupPath)") }
    if let stageA {
      lines.append("stage A (v1 → v2), planned meals read in \(timeZone):")
      for (kind, count) in stageA.converted.sorted(by: { $0.key < $1.key }) { lines.append("  \(kind.rawValue): \(count)") }
      if stageA.inferredMealTypes > 0 { lines.append("  meal types inferred from the hour: \(stageA.inferredMealTypes)") }
      for (kind, count) in stageA.created.sorted(by: { $0.key < $1.key }) where count > 0 {
        lines.append("  \(kind.rawValue) created for names the old data used: \(count)")
      }
      lines.append(contentsOf: stageA.notes.map { "  note: \($0)" })
    }
    if let dedup {
      if dedup.merges.isEmpty {
        lines.append("dedup: no duplicates")
      } else {
        lines.append(
          "dedup: \(dedup.merges.count) duplicate groups, \(dedup.mergedRecordCount) records merged into their keeper (smallest id)")
        for (kind, groups) in dedup.groupsByKind.sorted(by: { $0.key < $1.key }) {
          lines.append("  \(kind.rawValue): \(groups) groups")
        }
      }
    }
    for record in named { lines.append("named: \(record)") }
    if addedConstraints { lines.append("stage B (v2 → v3): unique constraints added") }
    if keyedWeeklyLists { lines.append("stage C (v3 → v4): weekly lists keyed by week and name") }
    if addedStores { lines.append("stage D (v4 → v5): stores, pantry amounts and planned servings added") }
    if addedIngredientGroups { lines.append("stage E (v5 → v6): ingredient groups and plan amounts added") }
    if let refusal {
      lines.append(
        "stage B (v2 → v3) \(isDryRun ? "would refuse" : "refused"); the store \(isDryRun ? "would stay" : "stays") at v2 because of:")
      lines.append(contentsOf: refusal.lines.map { "  " + $0 })
      lines.append("  run `migrate --name-unnamed` to give blank records a placeholder name")
    }
    return lines
  }
}

/// What stage A converted.
public struct StageAReport: Sendable, Hashable {
  /// Records written per kind.
  public var converted: [EntityKind: Int] = [:]
  /// Records stage A created because old data named them without a record: categories
  /// named by grocery items, templates named by ingredient lines, a list for orphan items.
  public var created: [EntityKind: Int] = [:]
  /// Planned meals whose meal type was missing and inferred from the hour.
  public var inferredMealTypes = 0
  /// Things a person may want to know (rows skipped, references to missing records).
  public var notes: [String] = []
}

/// A record named in a report: kind, id and display name.
public struct RecordRef: Sendable, Hashable, CustomStringConvertible {
  public var kind: EntityKind
  public var id: UUID
  public var name: String

  public var description: String { "\(kind.rawValue) '\(name)' \(id.uuidString.lowercased())" }
}

/// What the dedup step merged.
public struct DedupReport: Sendable, Hashable {
  /// One group of live records of a unique kind that shared a semantic key.
  public struct Merge: Sendable, Hashable {
    public var kind: EntityKind
    public var key: String
    /// The record kept: the smallest id of the group (Docs/DESIGN.md §2).
    public var keeper: RecordRef
    /// The records merged into the keeper and tombstoned.
    public var losers: [RecordRef]
    /// Values of losers the keeper could not take, as "field: value" (the keeper had its
    /// own). For planned meals the other recipes are also kept in the keeper's notes.
    public var dropped: [String]
  }

  public var merges: [Merge] = []
  /// Referring records re-pointed from a loser to its keeper.
  public var repointed = 0

  public var mergedRecordCount: Int { merges.reduce(0) { $0 + $1.losers.count } }
  public var groupsByKind: [EntityKind: Int] { Dictionary(grouping: merges, by: \.kind).mapValues(\.count) }

  /// Lines "kind 'keeper' id ← 'loser' id, …" for a terminal.
  public var lines: [String] {
    merges.map { merge in
      "\(merge.keeper) ← " + merge.losers.map { "'\($0.name)' \($0.id.uuidString.lowercased())" }.joined(separator: ", ")
    }
  }
}

/// Why stage B refused: live records of unique kinds without a key, or still sharing one.
public struct StageBRefusal: Sendable, Hashable {
  public var unkeyed: [RecordRef]
  public var duplicates: [(kind: EntityKind, key: String, records: [RecordRef])] = []

  public static func == (lhs: StageBRefusal, rhs: StageBRefusal) -> Bool { lhs.lines == rhs.lines }
  public func hash(into hasher: inout Hasher) { hasher.combine(lines) }

  /// One line per offending record or group.
  public var lines: [String] {
    unkeyed.map { "no semantic key (blank name): \($0)" }
      + duplicates.map { group in
        "duplicates of \(group.kind.rawValue) key '\(group.key)': " + group.records.map(\.description).joined(separator: ", ")
      }
  }
}
